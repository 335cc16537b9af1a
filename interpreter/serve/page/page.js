/* cairn serve: one seat's page. It shows the seat's state messages (the
   seat protocol, docs/protocol.md) as they come on the event stream, and
   posts the seat's answers. Text is only ever set as text, never as HTML. */
"use strict";
(function () {
  var BASE = location.pathname.replace(/\/+$/, "");
  var TEXTS = {
    en: {
      your_turn: "Your turn", waiting: "Waiting for {0}", nobody: "Nobody is asked now.",
      over: "The game is over.", board: "Board", news: "News", no_news: "Nothing yet.",
      scores: "Final scores", points: "{0} points", text_label: "Or type an answer as at the console:",
      send: "Send", offline: "Connection lost: reconnecting\u2026", busy: "The game is busy: try again.",
      seat: "{0} (seat {1})"
    },
    de: {
      your_turn: "Du bist dran", waiting: "Warten auf {0}", nobody: "Niemand ist gerade gefragt.",
      over: "Das Spiel ist vorbei.", board: "Spielbrett", news: "Neuigkeiten", no_news: "Noch nichts.",
      scores: "Endstand", points: "{0} Punkte", text_label: "Oder eine Antwort eingeben, wie an der Konsole:",
      send: "Senden", offline: "Verbindung unterbrochen: neuer Versuch\u2026",
      busy: "Das Spiel ist besch\u00e4ftigt: bitte noch einmal.", seat: "{0} (Platz {1})"
    },
    el: {
      your_turn: "\u0397 \u03c3\u03b5\u03b9\u03c1\u03ac \u03c3\u03bf\u03c5",
      waiting: "\u0391\u03bd\u03b1\u03bc\u03bf\u03bd\u03ae \u03b3\u03b9\u03b1 {0}",
      nobody: "\u039a\u03b1\u03bd\u03b5\u03af\u03c2 \u03b4\u03b5\u03bd \u03b5\u03c1\u03c9\u03c4\u03ac\u03c4\u03b1\u03b9 \u03c4\u03ce\u03c1\u03b1.",
      over: "\u03a4\u03bf \u03c0\u03b1\u03b9\u03c7\u03bd\u03af\u03b4\u03b9 \u03c4\u03b5\u03bb\u03b5\u03af\u03c9\u03c3\u03b5.",
      board: "\u03a4\u03b1\u03bc\u03c0\u03bb\u03cc", news: "\u039d\u03ad\u03b1",
      no_news: "\u03a4\u03af\u03c0\u03bf\u03c4\u03b1 \u03b1\u03ba\u03cc\u03bc\u03b1.",
      scores: "\u03a4\u03b5\u03bb\u03b9\u03ba\u03ae \u03b2\u03b1\u03b8\u03bc\u03bf\u03bb\u03bf\u03b3\u03af\u03b1",
      points: "{0} \u03b2\u03b1\u03b8\u03bc\u03bf\u03af",
      text_label: "\u0389 \u03b3\u03c1\u03ac\u03c8\u03b5 \u03bc\u03b9\u03b1 \u03b1\u03c0\u03ac\u03bd\u03c4\u03b7\u03c3\u03b7 \u03cc\u03c0\u03c9\u03c2 \u03c3\u03c4\u03b7\u03bd \u03ba\u03bf\u03bd\u03c3\u03cc\u03bb\u03b1:",
      send: "\u0391\u03c0\u03bf\u03c3\u03c4\u03bf\u03bb\u03ae",
      offline: "\u0397 \u03c3\u03cd\u03bd\u03b4\u03b5\u03c3\u03b7 \u03c7\u03ac\u03b8\u03b7\u03ba\u03b5: \u03b5\u03c0\u03b1\u03bd\u03b1\u03c3\u03cd\u03bd\u03b4\u03b5\u03c3\u03b7\u2026",
      busy: "\u03a4\u03bf \u03c0\u03b1\u03b9\u03c7\u03bd\u03af\u03b4\u03b9 \u03b5\u03af\u03bd\u03b1\u03b9 \u03b1\u03c0\u03b1\u03c3\u03c7\u03bf\u03bb\u03b7\u03bc\u03ad\u03bd\u03bf: \u03be\u03b1\u03bd\u03b1\u03b4\u03bf\u03ba\u03af\u03bc\u03b1\u03c3\u03b5.",
      seat: "{0} (\u03b8\u03ad\u03c3\u03b7 {1})"
    }
  };
  var lang = "en";
  var state = null;
  var sending = false;
  var inFlight = null; /* the position the answer on its way was given at */
  var queued = null;   /* an answer given meanwhile: { body, asked } */

  function $(id) { return document.getElementById(id); }
  function t(key) {
    var s = (TEXTS[lang] || TEXTS.en)[key] || TEXTS.en[key] || key;
    for (var i = 1; i < arguments.length; i++) s = s.split("{" + (i - 1) + "}").join(String(arguments[i]));
    return s;
  }
  function clear(el) { while (el.firstChild) el.removeChild(el.firstChild); }
  function seatName(st, n) {
    var seats = st.seats || [];
    for (var i = 0; i < seats.length; i++) if (seats[i].seat === n) return seats[i].name;
    return String(n);
  }
  function showError(msg) {
    var e = $("error");
    e.textContent = msg || "";
    e.hidden = !msg;
  }

  function renderScores(st) {
    var box = $("scores-box"), list = $("scores");
    clear(list);
    box.hidden = !(st.over && st.scores && st.scores.length);
    if (box.hidden) return;
    var rows = st.scores.slice().sort(function (a, b) { return (a.rank - b.rank) || (a.seat - b.seat); });
    rows.forEach(function (r) {
      var li = document.createElement("li");
      li.textContent = seatName(st, r.seat) + ": " + t("points", r.total);
      list.appendChild(li);
    });
  }

  /* The same question again (the event stream and a fetch after an answer
     both bring the state) keeps its buttons: a tap that lands while they
     were made anew would be lost, its press on the old button and its
     release on the new one. */
  function renderQuestion(st) {
    var q = st.question, box = $("question"), opts = $("options");
    var key = q ? JSON.stringify([st.position, st.lang, q]) : "";
    if (key && key === opts.dataset.key) return;
    opts.dataset.key = key;
    clear(opts);
    box.hidden = !q;
    if (!q) return;
    $("prompt").textContent = q.prompt;
    (q.options || []).forEach(function (o) {
      var b = document.createElement("button");
      b.type = "button";
      b.textContent = o.label || o.id;
      b.dataset.id = o.id;
      if (!o.enabled) {
        b.disabled = true;
        if (o.disabled) {
          var why = document.createElement("span");
          why.className = "why";
          why.textContent = o.disabled;
          b.appendChild(why);
        }
      }
      b.addEventListener("click", function () { send({ answer: o.id }); });
      opts.appendChild(b);
    });
  }

  function renderNews(st) {
    var list = $("news");
    var before = list.dataset.next ? Number(list.dataset.next) : -1;
    clear(list);
    var news = st.news || [];
    if (!news.length) {
      var none = document.createElement("li");
      none.textContent = t("no_news");
      list.appendChild(none);
    }
    news.forEach(function (n) {
      var li = document.createElement("li");
      li.textContent = n.text;
      if (before >= 0 && n.index >= before) li.className = "fresh";
      list.appendChild(li);
    });
    list.dataset.next = String(st.news_next || 0);
  }

  function render(st) {
    if (!st || st.type !== "state") {
      if (st && st.error) showError(st.error);
      return;
    }
    state = st;
    document.body.dataset.position = String(st.position);
    lang = TEXTS[st.lang] ? st.lang : "en";
    document.documentElement.lang = lang;
    document.title = seatName(st, st.seat) + " \u2013 " + st.ruleset;
    var name = st.name || seatName(st, st.seat);
    $("title").textContent = name.indexOf(String(st.seat)) >= 0 ? name : t("seat", name, st.seat);
    $("board-h").textContent = t("board");
    $("news-h").textContent = t("news");
    $("scores-h").textContent = t("scores");
    $("text-label").textContent = t("text_label");
    $("send").textContent = t("send");
    var turn = $("turn");
    turn.className = st.your_turn ? "mine" : "";
    if (st.over) turn.textContent = t("over");
    else if (st.your_turn) turn.textContent = t("your_turn");
    else if (st.asked && st.asked.length)
      turn.textContent = t("waiting", st.asked.map(function (n) { return seatName(st, n); }).join(", "));
    else turn.textContent = t("nobody");
    $("board").textContent = st.board !== null && st.board !== undefined ? st.board : (st.board_error || "");
    renderQuestion(st);
    renderNews(st);
    renderScores(st);
  }

  /* How many characters of the board's font fit across its box: sent with
     each request for the state, so the rules draw the board that wide
     (g.width) and a phone held upright need not scroll it sideways. */
  var cols = 0;
  function boardCols() {
    var pre = $("board"), probe = document.createElement("span");
    probe.className = "probe";
    probe.textContent = "0000000000";
    pre.appendChild(probe);
    var ch = probe.getBoundingClientRect().width / 10;
    pre.removeChild(probe);
    var cs = window.getComputedStyle(pre);
    var inner = pre.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    return ch > 0 && inner > 0 ? Math.floor(inner / ch) : 0;
  }
  function stateUrl() {
    cols = boardCols();
    return BASE + "/state" + (cols > 0 ? "?cols=" + cols : "");
  }

  function fetchState() {
    return fetch(stateUrl(), { cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (st) { if (st) render(st); })
      .catch(function () {});
  }

  function post(body) {
    return fetch(BASE + "/answer", {
      method: "POST", cache: "no-store",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify(body)
    }).then(function (r) {
      if (r.status === 429 || r.status === 503) throw new Error(t("busy"));
      return r.json();
    });
  }

  /* The same question as the one answered: same prompt, the option still
     there and enabled (another seat moved meanwhile, at the same time). */
  function sameQuestion(before, after, body) {
    if (!before || !after || !before.question || !after.question) return false;
    if (before.question.prompt !== after.question.prompt) return false;
    if (!body.answer) return true;
    return (after.question.options || []).some(function (o) { return o.id === body.answer && o.enabled; });
  }

  /* An answer names the position it was given at: one made on a question
     that changed meanwhile is refused ("stale"), never applied to another.
     When only another seat moved and this question is the same, it is sent
     again once, at the new position. An answer given while the one before
     is still on its way is sent after it, when it was given at a newer
     position (the next question shown before the first reply came back);
     a second tap at the same position is dropped, never sent twice. */
  function send(body) {
    var asked = state;
    if (asked) body.position = asked.position;
    if (sending) {
      if (asked && asked.position !== inFlight) queued = { body: body, asked: asked };
      return;
    }
    transmit(body, asked);
  }

  function transmit(body, asked) {
    sending = true;
    inFlight = asked ? asked.position : null;
    document.body.dataset.sending = "1";
    showError("");
    post(body).then(function (reply) {
      if (reply.ok || reply.code !== "stale") return reply;
      return fetch(stateUrl(), { cache: "no-store" }).then(function (r) { return r.json(); })
        .then(function (now) {
          if (!sameQuestion(asked, now, body)) {
            render(now);
            return reply;
          }
          body.position = now.position;
          return post(body);
        });
    }).then(function (reply) {
      if (!reply.ok) showError(reply.error || reply.code);
      else if (body.text !== undefined) $("text").value = "";
      sent();
      fetchState();
    }).catch(function (e) {
      showError(e.message);
      sent();
    });
  }

  /* The answer on its way has its reply: the next may go (one given
     meanwhile goes now). */
  function sent() {
    sending = false;
    inFlight = null;
    document.body.dataset.sending = "";
    if (queued) {
      var q = queued;
      queued = null;
      transmit(q.body, q.asked);
    }
  }

  $("free").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var v = $("text").value.trim();
    if (v) send({ text: v });
  });

  /* the event stream: a new state whenever the game moves; the browser
     reconnects by itself, naming the last state it had (Last-Event-ID) */
  function listen() {
    if (!window.EventSource) {
      setInterval(fetchState, 3000);
      return;
    }
    var es = new EventSource(BASE + "/events");
    es.onmessage = function (ev) {
      $("conn").hidden = true;
      try { render(JSON.parse(ev.data)); } catch (e) { showError(String(e)); }
    };
    es.onopen = function () { $("conn").hidden = true; };
    es.onerror = function () {
      var c = $("conn");
      c.textContent = t("offline");
      c.hidden = false;
    };
  }

  /* a phone turned, a window resized: the board again at the new width */
  var resizing = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(function () { if (boardCols() !== cols) fetchState(); }, 250);
  });

  fetchState();
  listen();
})();
