"""The one error type the engines raise."""

from __future__ import annotations

from .text import Text


class RuleError(Exception):
    """An action the rules refuse. `code` is stable snake_case; `text` is for players.

    `status` is the HTTP status the API answers with: 422 for an action against the
    rules, 403 for an action this seat may not take (it is not their turn).
    """

    def __init__(self, code: str, text: Text, status: int = 422):
        super().__init__(str(text))
        self.code = code
        self.text = text
        self.status = status


MALFORMED_OPTION = "malformed_option"  # the code of an option of the wrong shape (an action's: malformed_action)


class MalformedAction(RuleError):
    """An action whose shape is wrong (missing field, wrong type): HTTP 400."""

    def __init__(self, text: Text, code: str = "malformed_action"):
        super().__init__(code, text, status=400)
