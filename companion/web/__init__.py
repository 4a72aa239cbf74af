"""The two faces of the companion: htmx pages for people, a JSON API for programs."""
