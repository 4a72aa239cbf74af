// The worm-dice turn's controls (Pickomino, Heckmeck Barbecue): composing a roll by tapping
// the faces of the dice, and keeping the entry mode (roll by roll, or quick) the player
// chose. Set up on each table a swap brings (htmx.onLoad), each element once (data-ready).
(function () {
  "use strict";

  function faceValue(face) {
    return face === "worm" ? "worm" : parseInt(face, 10);
  }

  function setUpComposer(form) {
    const composed = form.querySelector(".composed");
    const enter = form.querySelector("[data-enter-roll]");
    if (!composed || !enter || form.dataset.ready) return;
    form.dataset.ready = "1";
    const diceLeft = parseInt(composed.dataset.diceLeft, 10);
    const kept = JSON.parse(composed.dataset.kept || "[]");
    const nothingNew = form.querySelector(".nothing-new");
    const enterFailing = form.querySelector("[data-enter-failing-roll]");
    const roll = [];

    function show() {
      composed.replaceChildren();
      roll.forEach(function (face, index) {
        const source = form.querySelector('.face-choice[data-face="' + face + '"] .die');
        const die = source.cloneNode(true);
        const remove = document.createElement("button");
        remove.type = "button";
        remove.className = "composed-die";
        remove.title = composed.dataset.removeTitle;
        remove.appendChild(die);
        remove.addEventListener("click", function () {
          roll.splice(index, 1);
          show();
        });
        composed.appendChild(remove);
      });
      const counter = document.createElement("span");
      counter.className = "composed-count";
      counter.textContent = roll.length + " / " + diceLeft;
      composed.appendChild(counter);
      // a complete roll with nothing new fails the turn: only the button below enters it
      const fails = roll.length === diceLeft && roll.every(function (face) { return kept.includes(face); });
      enter.disabled = roll.length !== diceLeft || fails;
      enter.value = JSON.stringify({ type: "roll", dice: roll.map(faceValue) });
      if (nothingNew) nothingNew.hidden = !fails;
      if (enterFailing) enterFailing.value = enter.value;
      form.querySelectorAll(".face-choice[data-face]").forEach(function (button) {
        button.disabled = roll.length >= diceLeft;
      });
    }

    form.querySelectorAll(".face-choice[data-face]").forEach(function (button) {
      button.addEventListener("click", function () {
        if (roll.length < diceLeft) {
          roll.push(button.dataset.face);
          show();
        }
      });
    });
    form.querySelector("[data-clear]").addEventListener("click", function () {
      roll.length = 0;
      show();
    });
    show();
  }

  function setUpModes(root) {
    root.querySelectorAll("[data-modes]").forEach(function (modes) {
      if (modes.dataset.ready) return;
      modes.dataset.ready = "1";
      const saved = localStorage.getItem("companion.mode");
      const radio = saved && modes.querySelector('input[value="' + saved + '"]');
      if (radio) radio.checked = true;
      modes.querySelectorAll('input[name^="mode-"]').forEach(function (input) {
        input.addEventListener("change", function () {
          localStorage.setItem("companion.mode", input.value);
        });
      });
    });
  }

  htmx.onLoad(function (element) {
    const root = element.parentNode || document;  // the element itself may be one to set up
    root.querySelectorAll("form.composer").forEach(setUpComposer);
    setUpModes(root);
  });
})();
