// The little the pages need beyond htmx, for every game (a game's own script is in its
// package, served with the others at /games.js): the log kept open or closed, no polling
// while the phone's screen is off, a tap sent once. No inline scripts.
(function () {
  "use strict";

  // The game log stays as the player left it (open or closed), although every change
  // replaces the table.
  function setUpLog(root) {
    root.querySelectorAll("details.log:not(.full-log)").forEach(function (log) {
      if (log.dataset.ready) return;
      log.dataset.ready = "1";
      const saved = sessionStorage.getItem("companion.log-open");
      if (saved) log.open = saved === "1";
      log.addEventListener("toggle", function () {
        sessionStorage.setItem("companion.log-open", log.open ? "1" : "0");
      });
    });
  }

  // Both a page's first load and htmx's first processing of it set up the same elements:
  // each is set up once (data-ready), so no listener is attached twice.
  function setUp(root) {
    setUpLog(root);
  }

  document.addEventListener("DOMContentLoaded", function () {
    setUp(document);
  });
  document.addEventListener("htmx:load", function (event) {
    setUp(event.detail.elt.parentNode || document);
  });
  // Polling while the screen is off wastes the phone's battery and the server's time.
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (document.hidden && event.detail.elt.classList.contains("poller")) {
      event.preventDefault();
    }
  });
  // A refused tap: its sentence must be seen, wherever on the page the player tapped.
  document.addEventListener("htmx:afterSwap", function () {
    const refusal = document.querySelector('#table .error[role="alert"]');
    if (refusal) refusal.scrollIntoView({ block: "nearest" });
  });
  // A tap while a request is in flight must not be sent twice.
  document.addEventListener("htmx:beforeRequest", function (event) {
    const form = event.detail.elt.closest && event.detail.elt.closest("form");
    if (form) form.classList.add("sending");
  });
  // ...and once it is answered, whatever the answer: a dropped request (no network, a server
  // error) swaps nothing, and the form must not stay dead until the next table change.
  document.addEventListener("htmx:afterRequest", function (event) {
    const form = event.detail.elt.closest && event.detail.elt.closest("form");
    if (form) form.classList.remove("sending");
  });
  // A double tap is one tap: its second must not land on what the first one's answer put
  // under the finger ("Undo the last action" after a roll, a colour sum after the white
  // sum, which ended the turn). The table a tap brought takes no tap for a moment.
  // (Marked on the document: htmx settles the swapped-in table's own classes.)
  const FRESH_TABLE_MS = 500;
  let freshTable = null;
  document.addEventListener("htmx:afterSwap", function (event) {
    const source = event.detail.requestConfig && event.detail.requestConfig.elt;  // the tap's form
    const target = event.detail.target;
    if (!target || target.id !== "table" || !(source && source.closest && source.closest("form"))) return;
    document.documentElement.classList.add("just-answered");
    clearTimeout(freshTable);
    freshTable = setTimeout(function () { document.documentElement.classList.remove("just-answered"); }, FRESH_TABLE_MS);
  });
})();

// The start form shows only the chosen game's options, how many players it seats and as many
// name slots (without JavaScript, every game's options and every slot). A slot past them that
// holds a name stays: the name is not dropped unseen, and the table is refused, saying why.
(function () {
  "use strict";
  function showOptionsOf(select) {
    document.querySelectorAll("fieldset.options[data-game]").forEach(function (fieldset) {
      const chosen = fieldset.dataset.game === select.value;
      fieldset.hidden = !chosen;
      fieldset.disabled = !chosen;
    });
    const option = select.selectedOptions[0];
    const players = document.querySelector("[data-game-players]");
    if (players && option) { players.textContent = option.dataset.players; players.hidden = false; }
    const seats = Number(option && option.dataset.maxPlayers) || Infinity;
    document.querySelectorAll(".name-slot").forEach(function (slot, index) {
      const input = slot.querySelector("input");
      slot.hidden = index >= seats && !(input && input.value.trim());
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    const select = document.getElementById("game-choice");
    if (!select) return;
    select.addEventListener("change", function () { showOptionsOf(select); });
    showOptionsOf(select);
  });
})();

// A swap replaces the whole table, and with it the control that had the keyboard's (or a
// switch's) focus, which then fell back to the page's start. The same control in the new
// table takes it again; gone (its part of the turn is over), the line that says whose turn
// it is does. Text fields are left alone: focusing one opens a phone's keyboard.
(function () {
  "use strict";
  const IDENTIFYING_ATTRIBUTES = ["name", "value", "for", "href", "data-face", "data-setting", "data-seat"];
  const STATUS = ".status";
  let focused = null;  // how to find the focused control of the table again
  function describe(control) {
    if (control.matches(STATUS)) return STATUS;
    if (control.id) return "#" + CSS.escape(control.id);
    const form = control.closest("form");
    let selector = (form && form.classList.length ? "form." + CSS.escape(form.classList[0]) + " " : "") + control.tagName.toLowerCase();
    IDENTIFYING_ATTRIBUTES.forEach(function (name) {
      const value = control.getAttribute(name);
      if (value !== null) selector += "[" + name + '="' + CSS.escape(value) + '"]';
    });
    return selector;
  }
  function shown(element) {  // checkVisibility: not before iOS 17.4
    return element.checkVisibility ? element.checkVisibility() : element.getClientRects().length > 0;
  }
  // The one control `selector` names in the new table; none where it names several (a link
  // of the log, "Clear"): focus on another than the player's would send their Enter there.
  function sameControl(table, selector) {
    let found = [];
    try { found = table.querySelectorAll(selector); } catch (error) { return null; }
    return found.length === 1 && shown(found[0]) ? found[0] : null;
  }
  document.addEventListener("focusin", function (event) {
    const control = event.target;
    const typed = control.matches("input:not([type=checkbox]):not([type=radio]), textarea, select");
    focused = control.closest && control.closest("#table") && !typed ? describe(control) : null;
  });
  document.addEventListener("htmx:afterSettle", function () {
    const table = document.getElementById("table");
    if (!table || !focused || (document.activeElement && document.activeElement !== document.body)) return;
    const again = focused === STATUS ? null : sameControl(table, focused);
    if (again) again.focus({ preventScroll: true });
    if (again && document.activeElement === again) return;
    const status = table.querySelector(STATUS);
    if (!status) return;
    status.setAttribute("tabindex", "-1");
    status.focus({ preventScroll: true });
  });
})();

// "Share the results": the text and a picture (the server's SVG of the results, drawn to a
// PNG here) through the phone's share sheet where it has one (Web Share API); elsewhere
// the picture downloads and the text goes to the clipboard.
(function () {
  "use strict";

  function pictureOf(address) {
    return fetch(address, { credentials: "same-origin" })
      .then(function (response) { return response.text(); })
      .then(function (svg) {
        return new Promise(function (resolve, reject) {
          const image = new Image();
          image.onload = function () {
            const scale = 2;  // sharp on a phone's screen
            const canvas = document.createElement("canvas");
            canvas.width = image.width * scale;
            canvas.height = image.height * scale;
            const context = canvas.getContext("2d");
            context.scale(scale, scale);
            context.drawImage(image, 0, 0);
            canvas.toBlob(function (blob) { return blob ? resolve(blob) : reject(new Error("no picture")); }, "image/png");
          };
          image.onerror = reject;
          // a data: address, as the page's Content-Security-Policy allows for images
          image.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
        });
      });
  }

  function download(blob, name) {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(link.href); }, 10000);
  }

  function share(button) {
    const text = button.dataset.shareText;
    pictureOf(button.dataset.shareImage).then(function (blob) {
      const file = new File([blob], button.dataset.shareName, { type: "image/png" });
      if (navigator.share && navigator.canShare && navigator.canShare({ files: [file] })) {
        return navigator.share({ text: text, files: [file] });
      }
      if (navigator.share) return navigator.share({ text: text }).then(function () { download(blob, file.name); told("saved"); });
      download(blob, file.name);
      if (!navigator.clipboard) return told("saved");
      return navigator.clipboard.writeText(text).then(function () { told("done"); }, function () { told("saved"); });
    }).catch(function () {});  // the player closed the share sheet: nothing to do
  }
  // Without a share sheet nothing on the screen moves: the page says what was done.
  function told(which) {
    document.querySelectorAll("[data-share-done], [data-share-saved]").forEach(function (sentence) {
      sentence.hidden = !sentence.hasAttribute("data-share-" + which);
    });
  }

  document.addEventListener("click", function (event) {
    const button = event.target.closest && event.target.closest("button.share[data-share-text]");
    if (button) share(button);
  });
})();

// A table page: the pushed table, and the phone telling its player when to act.
(function () {
  "use strict";
  // The server says something every heartbeat while the page listens (15 s unless its
  // operator set another): two missed, and the held connection is taken for dead.
  const pushed = document.querySelector(".live[data-heartbeat-seconds]");  // (app.js runs deferred)
  const HEARTBEAT_MS = 1000 * (pushed ? Number(pushed.dataset.heartbeatSeconds) : 15);
  const SILENCE_MS = 2 * HEARTBEAT_MS + 5000;
  let pushing = false;
  let silence = null;

  function settingOn(name, fallback) {
    const saved = localStorage.getItem("companion." + name);
    return saved === null ? fallback : saved === "1";
  }

  // A proxy that buffers the held connection hands each event over only with the next one
  // (nginx with proxy_buffering: every change 15 s late, the pings keeping it "alive"). The
  // server says hello the moment it opens: a hello that does not come soon means such a
  // proxy (or a dead connection), and the page lets the connection go and polls, trying a
  // held connection again a minute later.
  const HELLO_MS = 4000;
  const TRY_AGAIN_MS = 60000;
  let heldSource = null;  // the page's held connection, as last opened
  function letGo(source) {
    source.close();
    clearTimeout(silence);
    pushing = false;
    document.documentElement.dataset.push = "off";
    setTimeout(connectAgain, TRY_AGAIN_MS);
  }

  // A page that has not heard the companion for a while says so: it would look live while
  // showing an old table (an old "Your turn"). Heard: anything on the held connection (a
  // ping every heartbeat), any answer to a poll (every 2 s) or a tap. A page coming back into
  // view is given the time of a poll or a reconnection before it says anything.
  const QUIET_PUSHING_MS = HEARTBEAT_MS + 5000;
  const QUIET_POLLS = 3.5;  // polls missed in a row, at least 7 s
  let lastHeard = Date.now();
  function heard() {
    lastHeard = Date.now();
    showConnection();
  }
  function quietMs() {
    if (pushing) return QUIET_PUSHING_MS;
    const poller = document.querySelector(".poller[hx-trigger]");
    const every = poller && /every (\d+(?:\.\d+)?)s/.exec(poller.getAttribute("hx-trigger"));
    return Math.max(7000, QUIET_POLLS * 1000 * (every ? Number(every[1]) : 2));
  }
  function showConnection() {
    const lost = !document.hidden && Date.now() - lastHeard > quietMs();
    document.querySelectorAll("[data-connection-lost]").forEach(function (sentence) { sentence.hidden = !lost; });
  }
  setInterval(showConnection, 1000);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) heard(); });
  document.addEventListener("htmx:afterRequest", function (event) {
    const xhr = event.detail.xhr;
    // any answer of the companion's, its 503 too; a proxy's 502 or 504 is not one
    if (xhr && xhr.status > 0 && xhr.status !== 502 && xhr.status !== 504) heard();
  });

  // Push works once the held connection speaks; while it does, the poller stays quiet.
  // Silence (a proxy that buffers, a connection gone) brings the polling back by itself.
  function alive() {
    heard();
    pushing = true;
    document.documentElement.dataset.push = "on";
    clearTimeout(silence);
    silence = setTimeout(function () {
      pushing = false;
      document.documentElement.dataset.push = "off";
      connectAgain();
    }, SILENCE_MS);
  }
  // A connection can die without a word (a Wi-Fi router or NAT that forgot it): the browser
  // would wait on it for hours. After the silence the page opens a new one, from the
  // version it shows (the polls meanwhile, and every request, give up after htmx's timeout).
  function connectAgain() {
    const live = document.querySelector(".live[sse-connect]");
    if (!live) return;
    const address = new URL(live.getAttribute("sse-connect"), location.href);
    address.searchParams.set("v", String(shownVersion()));
    if (heldSource) heldSource.close();
    live.setAttribute("sse-connect", address.pathname + address.search);
    htmx.process(live);  // its address changed: htmx closes the old source and opens a new one
  }
  document.addEventListener("htmx:sseOpen", function (event) {
    const source = event.detail.source;
    if (!source) return;
    heldSource = source;
    source.helloHeard = false;  // on every opening, a reconnection's too
    clearTimeout(source.helloWait);
    source.helloWait = setTimeout(function () { if (!source.helloHeard) letGo(source); }, HELLO_MS);
    if (source.companionReady) return;
    source.companionReady = true;
    source.addEventListener("hello", function () { source.helloHeard = true; });
    ["hello", "ping", "table", "own"].forEach(function (name) { source.addEventListener(name, alive); });
    // closed first: the server ends the stream after it, and the source would cry out as it left
    source.addEventListener("redirect", function (message) { source.close(); location.assign(message.data); });
    source.addEventListener("own", ownTap);
  });
  document.addEventListener("htmx:sseError", function () {
    pushing = false;
    document.documentElement.dataset.push = "off";
  });
  // The element that asked for an answer (the poller, a tap's form): in htmx's swap events
  // `elt` is the element swapped into, the table, whoever asked.
  function requester(event) {
    return event.detail.requestConfig ? event.detail.requestConfig.elt : event.detail.elt;
  }
  function isPoller(element) {
    return Boolean(element && element.classList && element.classList.contains("poller"));
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (pushing && !owed && unanswered === null && isPoller(event.detail.elt)) event.preventDefault();
  });

  // For a version this page's own tap made, the held connection says just "own": the tap's
  // answer brings the table. If that answer has not landed a moment later (lost on the
  // way, or dropped because another phone's change replaced the table while the tap was in
  // flight), the page asks for its table, and the poller goes on asking, push or not,
  // until the page has that version. A tap still waiting for its answer is waited for.
  const ANSWER_GRACE_MS = 1500;
  let owed = 0;
  let tapsInFlight = 0;
  let tapsSent = 0;  // this page's taps, numbered as sent
  let lastTapAnswered = 0;
  let toldOwn = 0;  // the last version this page's taps made, as far as the page was told
  function askForTable() {
    const poller = document.querySelector("#table .poller");
    if (!poller) return;
    // a failed asking is answered by the poller's next one: nothing to report here
    htmx.ajax("GET", poller.getAttribute("hx-get"), { source: poller, target: "#table", swap: "outerHTML" }).catch(function () {});
  }
  function askIfOwed(version) {
    if (shownVersion() >= version) return;
    if (tapsInFlight > 0) {
      setTimeout(function () { askIfOwed(version); }, ANSWER_GRACE_MS / 3);
      return;
    }
    owed = Math.max(owed, version);
    askForTable();
  }
  function ownTap(message) {
    const version = Number(message.data);
    toldOwn = Math.max(toldOwn, version);
    setTimeout(function () { askIfOwed(version); }, ANSWER_GRACE_MS);
  }
  document.addEventListener("htmx:afterSettle", function () {
    if (owed && shownVersion() >= owed) owed = 0;
  });
  // A tap is followed on its request itself: a form the table's replacement took out of the
  // page no longer tells the document when its answer came.
  document.addEventListener("htmx:beforeSend", function (event) {
    const source = event.detail.elt;
    const xhr = event.detail.xhr;
    if (!source || !source.closest || !source.closest("#table form") || !xhr) return;
    tapsInFlight += 1;
    const tap = ++tapsSent;
    const madeOn = shownVersion();
    xhr.addEventListener("load", function () {
      // a later tap of this page answered first: this answer's sentence no longer holds
      if (tap < lastTapAnswered) return;
      lastTapAnswered = tap;
      // after htmx's own handling: an answer it swapped in is the table shown now
      const html = xhr.responseText || "";
      const answered = versionIn(html);
      if (answered === null) {
        // not a table: the companion's refusal page (its sentence is shown), or whatever a
        // proxy says while the companion is unreachable (as good as no answer; a 502 or 504
        // may leave the companion saving the tap after the page asks)
        const sentence = sentenceIn(html);
        if (sentence) showInTable(sentence);
        else noAnswer(madeOn, xhr.status === 502 || xhr.status === 504);
      } else if (html.includes('role="alert"')) {
        if (answered <= shownVersion()) keepSentence(html);
      } else if (answered > madeOn) {
        toldOwn = Math.max(toldOwn, answered);  // the table this tap made
      }
    });
    xhr.addEventListener("loadend", function () {
      tapsInFlight -= 1;
      if (xhr.status === 0 && tap > lastTapAnswered) noAnswer(madeOn);  // not if a later tap was answered
    });
  });

  // A tap that got no answer (the phone offline, the companion stopped, the request lost)
  // may hide a saved tap, or may not have counted: the page says so and asks for its table
  // at once, and keeps asking (the held connection may have died unnoticed too) until the
  // companion answers. Then the table shows the tap if it was saved; if the table has not
  // moved, nothing was entered, and the page says that instead.
  let unanswered = null;  // the version shown when a tap got no answer, until that is known
  let asks = 0;  // the page's askings for its table, numbered as sent
  let firstTellingAsk = 0;  // one sent before the tap failed may predate the tap's saving
  let mayStillCount = false;  // the companion may still be saving the tap
  function noAnswer(madeOn, stillSaving) {
    pushing = false;
    mayStillCount = mayStillCount || Boolean(stillSaving);
    unanswered = unanswered === null ? madeOn : Math.min(unanswered, madeOn);
    firstTellingAsk = asks + 1;
    say("unreachable");
    askForTable();
  }
  document.addEventListener("htmx:beforeSend", function (event) {
    if (event.detail.xhr && isPoller(event.detail.elt)) event.detail.xhr.companionAsk = ++asks;
  });
  // The table not moved: the tap was not entered. Moved: by this page's own tap if its held
  // connection said "own" for it (or a later tap's answer brought it), else the page cannot
  // tell (another phone may have acted) and the player is asked to look. A later tap's
  // refusal shown since stands: its reason holds, and the player tapped again.
  function knowIfCounted() {
    if (unanswered === null) return;
    const laterRefusal = document.querySelector('#table .error[role="alert"]:not([data-said])');
    if (!laterRefusal && toldOwn > unanswered) {
      document.querySelectorAll("#table [data-said]").forEach(function (sentence) { sentence.remove(); });
    } else if (!laterRefusal) {
      say(shownVersion() <= unanswered && !mayStillCount ? "notEntered" : "unknown");
    }
    unanswered = null;
    mayStillCount = false;
  }
  document.addEventListener("htmx:afterRequest", function (event) {
    const xhr = event.detail.xhr;
    const isTable = xhr && (xhr.status === 204 || versionIn(xhr.responseText) !== null);
    if (isTable && xhr.companionAsk >= firstTellingAsk) knowIfCounted();
  });
  document.addEventListener("htmx:sseMessage", function () {
    if (unanswered !== null && shownVersion() > unanswered) knowIfCounted();  // another phone's table
  });
  function say(which) {
    const live = document.querySelector(".live");
    if (!live) return;
    const sentence = document.createElement("p");
    sentence.className = "error";
    sentence.setAttribute("role", "alert");
    sentence.dataset.said = which;
    sentence.textContent = live.dataset[which];
    showInTable(sentence);
  }
  function sentenceIn(html) {
    if (!html.includes('role="alert"')) return null;
    const answer = document.createElement("template");  // inert: nothing in it runs or loads
    answer.innerHTML = html;
    return answer.content.querySelector('.error[role="alert"]');
  }

  // Versions only go forward: a table older than the one shown (a tap's answer overtaken by
  // a newer push or poll) is not swapped in, nor is a poll's table the page shows already
  // (an answer that landed while the page asked), which would undo what the player has
  // begun to enter.
  function shownVersion() {
    const table = document.getElementById("table");
    return table ? Number(table.dataset.version) : -1;
  }
  function versionIn(html) {
    const found = /data-version="(\d+)"/.exec((html || "").slice(0, 1000));
    return found === null ? null : Number(found[1]);
  }
  // Whether a table of the version shown says what the shown one does not: that a rematch
  // started (which moves no version).
  function bringsRematch(html) {
    const table = document.getElementById("table");
    return / data-rematch[ >]/.test((html || "").slice(0, 1000)) && !(table && table.hasAttribute("data-rematch"));
  }
  function addsNothing(html, incoming) {
    return incoming < shownVersion() || (incoming === shownVersion() && !bringsRematch(html));
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    const target = event.detail.target;
    const incoming = versionIn(event.detail.serverResponse);
    if (!target || target.id !== "table") return;
    if (incoming === null) {
      // not a table (a refusal page, a proxy's error page): never in the table's place; a
      // tap's is said in the table (above)
      event.detail.shouldSwap = false;
      return;
    }
    if (incoming < shownVersion() || (isPoller(requester(event)) && addsNothing(event.detail.serverResponse, incoming))) event.detail.shouldSwap = false;
  });
  // A refused tap (or a redo stopped by a rule) whose answer a newer table overtook (not
  // swapped in, or dropped by htmx as its form had left the page): the newer table stays,
  // and the answer's sentence is shown in it, where a refusal goes, so the player knows
  // their tap did not count.
  function keepSentence(html) {
    const sentence = sentenceIn(html);
    const table = document.getElementById("table");
    if (!sentence || !table) return;
    const shown = table.querySelector('.error[role="alert"]');
    if (shown && shown.textContent === sentence.textContent) return;  // swapped in with its table
    showInTable(sentence);
  }
  // A sentence for the player put where the table shows a refusal, instead of the one shown.
  function showInTable(sentence) {
    const table = document.getElementById("table");
    if (!table) return;
    const shown = table.querySelector('.error[role="alert"]');
    const controls = table.querySelector("#controls");
    const after = table.querySelector(".corrections, details.log");
    if (shown) shown.replaceWith(sentence);
    else if (controls) controls.prepend(sentence);
    else if (after) after.before(sentence);
    else table.append(sentence);
    sentence.scrollIntoView({ block: "nearest" });
  }
  // A pushed table the page shows already adds nothing, and would wipe a refusal's sentence
  // that the tap's answer brought just before it (and what the player has begun to enter).
  document.addEventListener("htmx:sseBeforeMessage", function (event) {
    const incoming = versionIn(event.detail && event.detail.data);
    if (incoming !== null && addsNothing(event.detail.data, incoming)) event.preventDefault();
  });

  // Your turn: when this phone's player must act (their dice turn, their writing, their
  // final count), the title says so, the phone vibrates, and a short sound plays if the
  // player switched sounds on.
  let baseTitle = null;
  let mustAct = null;
  function beep() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    const audio = new Context();
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = 880;
    volume.gain.setValueAtTime(0.2, audio.currentTime);
    volume.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    tone.connect(volume).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.35);
  }
  function checkTurn() {
    const live = document.querySelector(".live");
    const table = document.getElementById("table");
    if (!live || !table) return;
    if (baseTitle === null) baseTitle = document.title;
    const now = table.hasAttribute("data-must-act");
    document.title = now ? live.dataset.turnTitle : baseTitle;
    const said = document.querySelector("[data-turn-said]");
    if (now && mustAct === false) {
      if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
      if (settingOn("sound", false)) beep();
      if (said) said.textContent = said.dataset.text;  // a change of title is not read out
    } else if (!now && said) {
      said.textContent = "";  // so that the next turn is said again
    }
    mustAct = now;
  }

  // Until this page has been tapped the browser refuses it the vibration and the sound: the
  // player is asked for one tap (any tap will do), which the offer itself answers with a
  // short buzz where the phone can vibrate. It sits beside who this phone is, and goes once a
  // tap has landed (its click), never between finger down and up; its place stays, so
  // nothing moves under the finger. Answered (that tap, its ✕ or any other), or with nothing
  // to offer, the phone is not asked again: the companion leaves it out of its pages (a
  // cookie, ALERTS_ANSWERED_COOKIE in web/pages.py).
  const ALERTS_ANSWERED = "companion_alerts=answered; path=/; max-age=31536000; samesite=lax";
  function offerAlerts() {
    const offer = document.querySelector("[data-alerts-offer]");
    const activation = navigator.userActivation;
    if (!offer) return;
    if (!activation || (!navigator.vibrate && !settingOn("sound", false))) {
      document.cookie = ALERTS_ANSWERED;  // nothing it could do (an iPhone, no sound)
      return;
    }
    if (activation.hasBeenActive) return;
    offer.classList.add("offered");
    function tapped() {
      if (!activation.hasBeenActive) return;
      offer.classList.remove("offered");
      document.cookie = ALERTS_ANSWERED;
      ["keydown", "click"].forEach(function (kind) { document.removeEventListener(kind, tapped, true); });
    }
    ["keydown", "click"].forEach(function (kind) { document.addEventListener(kind, tapped, true); });
    offer.querySelector("[data-alerts-ask]").addEventListener("click", function () { if (navigator.vibrate) navigator.vibrate(60); });
  }
  // Once the game is over (or the table closed) nothing will call this phone's player: the
  // offer, if still untapped, goes.
  function withdrawOfferAtTheEnd() {
    const offer = document.querySelector("[data-alerts-offer]");
    if (offer && document.querySelector("#table[data-over]")) offer.classList.remove("offered");
  }

  // The screen stays awake while a table page is open (Screen Wake Lock), taken again when
  // the page is seen again (the browser lets it go when the page is hidden), unless the
  // player switched that off, and while the game is on: not once it is over or the table
  // closed, and again if the host's undo takes the game back from its end.
  let wakeLock = null;
  let askingForLock = false;
  function wantsAwake() {
    return document.querySelector(".live") && settingOn("awake", true) && !document.hidden &&
      !document.querySelector("#table[data-over]");
  }
  function keepAwake() {
    if (!wantsAwake() || !navigator.wakeLock || wakeLock || askingForLock) return;
    askingForLock = true;
    navigator.wakeLock.request("screen").then(function (lock) {
      askingForLock = false;
      // the game may have ended (or the switch gone off) while the lock was being granted
      if (!wantsAwake()) { lock.release(); return; }
      wakeLock = lock;
      lock.addEventListener("release", function () { wakeLock = null; });
    }).catch(function () { askingForLock = false; });
  }
  function letSleep() {
    if (wakeLock) wakeLock.release();
    wakeLock = null;
  }
  // The table changed: over, the phone may sleep again and the switch goes; on again (an
  // undo of the last action), both come back.
  function awakeWhilePlaying() {
    const over = Boolean(document.querySelector("#table[data-over]"));
    const awake = document.querySelector('.phone-settings [data-setting="awake"]');
    if (awake) awake.closest("label").hidden = over;
    if (over) letSleep(); else keepAwake();
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".phone-settings [data-setting]").forEach(function (box) {
      const name = box.dataset.setting;
      box.checked = settingOn(name, name === "awake");
      box.addEventListener("change", function () {
        localStorage.setItem("companion." + name, box.checked ? "1" : "0");
        if (name === "awake") { if (box.checked) keepAwake(); else letSleep(); }
      });
    });
    checkTurn();
    keepAwake();
    offerAlerts();
  });
  document.addEventListener("htmx:afterSettle", checkTurn);
  document.addEventListener("htmx:afterSettle", withdrawOfferAtTheEnd);
  document.addEventListener("htmx:afterSettle", awakeWhilePlaying);
  document.addEventListener("visibilitychange", keepAwake);
})();

// A seat's table page says that the seat is open on this phone, unless it is already:
// another phone that scans the seat's code is then asked first (a player who scanned a
// neighbour's code would share their sheet unseen). Sent by the page, not by the join
// link, so that a link preview fetching the link never counts as a phone.
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    const live = document.querySelector(".live[data-seat-opened]");
    if (!live || !window.fetch) return;
    let csrf = "";
    try { csrf = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRF-Token"] || ""; } catch (error) { return; }
    fetch(live.dataset.seatOpened, { method: "POST", headers: { "X-CSRF-Token": csrf }, credentials: "same-origin" }).catch(function () {});
  });
})();

// The host's join codes ask every few seconds which seats are open on a phone yet
// (templates/join.html; the companion stops them once all are): not while the screen is
// off or the page hidden, and never again once refused (the host token gone, the table).
(function () {
  "use strict";
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (document.hidden && event.detail.elt.matches("[data-join-status]")) event.preventDefault();
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    const status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (event.detail.elt.matches("[data-join-status]") && (status === 403 || status === 404)) event.detail.elt.remove();
  });
})();

// The table screen (body.tv, read from across the room): a name wider than its place is a
// single long word (app.css wraps names between words only), so it is drawn smaller, down
// to two thirds of its size but never under 16 px, before the stylesheet's ellipsis shows.
// A TV cannot scroll: should the whole screen still be taller or wider than the window
// (the most players with long names, a longer language, a 720p TV), every size drawn from
// the screen's unit (--u, times --fit) shrinks a step at a time, down to four fifths. A
// screen with room to spare (few players, the sheets of Qwixx and Twenty One, which left
// two fifths of a TV empty) grows the same way while it still fits, up to one and a half.
(function () {
  "use strict";
  var NAMES = ".player-name, .rank-name, .qx-name, .tw-name";
  var LEAST_SCALE = 0.8;
  var MOST_SCALE = 1.5;
  function fitScreen() {
    var body = document.body, page = document.documentElement;
    function overflows() { return page.scrollHeight > window.innerHeight || page.scrollWidth > window.innerWidth; }
    body.style.removeProperty("--fit");
    var scale = 1;
    while (overflows() && scale > LEAST_SCALE) {
      scale = Math.max(LEAST_SCALE, scale * 0.96);
      body.style.setProperty("--fit", String(scale));
    }
    if (scale < 1) return;
    while (scale < MOST_SCALE) {
      var bigger = Math.min(MOST_SCALE, scale * 1.04);
      body.style.setProperty("--fit", String(bigger));
      if (overflows()) {
        body.style.setProperty("--fit", String(scale));
        return;
      }
      scale = bigger;
    }
  }
  function fit() {
    if (!document.body.classList.contains("tv")) return;
    fitScreen();
    fitNames();  // every name, as a smaller unit changed the room each has
  }
  function fitNames() {
    document.querySelectorAll(NAMES).forEach(function (name) {
      name.style.fontSize = "";
      var size = parseFloat(getComputedStyle(name).fontSize);
      var least = Math.max(16, size * 2 / 3);
      while (name.scrollWidth > name.clientWidth + 1 && size > least) {
        size = Math.max(least, size * 0.94);
        name.style.fontSize = size + "px";
      }
    });
  }
  document.addEventListener("DOMContentLoaded", fit);
  document.addEventListener("htmx:load", fit);
  window.addEventListener("resize", fit);
})();

// /tv (templates/tv.html): a code refused comes back in its field, selected, so the remote
// types the right one over it instead of deleting it a character at a time.
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    const refused = document.querySelector("#tv-code[aria-invalid]");
    if (refused) refused.select();
  });
})();
