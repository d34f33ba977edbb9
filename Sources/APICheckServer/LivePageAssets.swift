/// The live page's style and script (``LivePage``): inline, allowed by hash.
///
/// The script polls the admin API (`health` and the journal's last 100 requests each second,
/// `stubs` and `scenarios` every five seconds and after each change), redraws only what changed
/// (an open near-miss report stays open), and writes every value with `textContent`. Its calls
/// send `Accept: application/json`, and the token, when the server has one, as `Authorization:
/// Bearer`; the server checks their `Origin` is its own.
enum LivePageAssets {
    static let style: StaticString = """
        :root { --error: #c62828; --warning: #b26a00; --ok: #2e7d32; --line: #d0d4da; --ink: #1d2330; --muted: #5b6372; }
        * { box-sizing: border-box; }
        body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); margin: 0; padding: 0 24px 48px; }
        header { border-bottom: 1px solid var(--line); padding: 14px 0 8px; }
        h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 24px 0 6px; } h2 small { color: var(--muted); font-weight: normal; }
        .hint { color: var(--muted); margin: 4px 0; }
        .controls { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 8px 0; }
        button, input, select, textarea { font: inherit; padding: 3px 8px; }
        table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid #eceef1; vertical-align: top; overflow-wrap: anywhere; }
        th { color: var(--muted); font-weight: 600; font-size: 12px; }
        #journal td:nth-child(1) { font-variant-numeric: tabular-nums; white-space: nowrap; }
        tr.outcome-unmatched td, tr.outcome-failed td { color: var(--error); }
        .badge { font-size: 11px; text-transform: uppercase; letter-spacing: 0.04em; }
        .badge.runtime { color: #3f51b5; font-weight: 700; } .badge.file { color: var(--muted); }
        tr.shadowed { opacity: 0.5; }
        td.source { color: var(--muted); font-size: 12px; }
        pre { background: #f3f4f6; padding: 8px; border-radius: 4px; white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; }
        .ok { color: var(--ok); } .bad, .diagnostics .error { color: var(--error); } .diagnostics .warning { color: var(--warning); }
        textarea { width: 100%; min-height: 9em; font: 12.5px ui-monospace, SFMono-Regular, Menlo, monospace; }
        #action-status { color: var(--muted); }
        """

    static let script: StaticString = """
        (function () {
          "use strict";
          var TOKEN_KEY = "apicheck-admin-token";
          var token = sessionStorage.getItem(TOKEN_KEY) || "";
          function byId(id) { return document.getElementById(id); }
          function count(number, noun) { return number + " " + noun + (number === 1 ? "" : "s"); }
          // Until the server accepts the token (when it has one), nothing is known: say so once,
          // and keep the buttons that would be refused off.
          var locked = false;
          function lock(isLocked) {
            locked = isLocked;
            byId("token-form").hidden = !isLocked;
            ["reload-button", "reset-button", "clear-journal-button", "add-stub-button"].forEach(function (id) { byId(id).disabled = isLocked; });
            if (isLocked) {
              ["reload", "scenarios"].forEach(function (id) { byId(id).textContent = ""; });
              byId("journal").tBodies[0].textContent = "";
              byId("stubs").tBodies[0].textContent = "";
              byId("journal-count").textContent = "";
              byId("stub-count").textContent = "";
              journalSeen = ""; scenariosSeen = ""; lastReloadSeen = "";
            }
          }
          function element(name, text, className) {
            var made = document.createElement(name);
            if (text !== undefined && text !== null) { made.textContent = String(text); }
            if (className) { made.className = className; }
            return made;
          }
          function call(method, path, body) {
            var headers = { "Accept": "application/json" };
            if (token) { headers["Authorization"] = "Bearer " + token; }
            var init = { method: method, headers: headers, cache: "no-store", credentials: "omit" };
            if (body !== undefined) { headers["Content-Type"] = "application/json"; init.body = body; }
            return fetch("/__apicheck/" + path, init).then(function (response) {
              if (response.status === 401 && !locked) { lock(true); }
              return response.text().then(function (text) {
                var json = null;
                try { json = JSON.parse(text); } catch (ignored) { json = null; }
                return { status: response.status, json: json };
              });
            }, function (error) { return { status: 0, json: { detail: "the server cannot be reached (" + error + ")" } }; });
          }
          function say(text) { byId("action-status").textContent = text; }
          function problem(reply) { return reply.json && reply.json.detail ? reply.json.detail : "status " + reply.status; }

          function showReload(last) {
            var holder = byId("reload");
            holder.textContent = "";
            if (!last) { holder.appendChild(element("p", "No reload yet.", "hint")); return; }
            holder.appendChild(element("p", (last.accepted ? "Accepted: " : "Rejected, the last good set still serves: ") + last.message + " (" + last.date + ")", last.accepted ? "ok" : "bad"));
            var diagnostics = last.diagnostics || [];
            if (diagnostics.length > 0) {
              var list = element("ul", null, "diagnostics");
              diagnostics.forEach(function (diagnostic) { list.appendChild(element("li", diagnostic.text, diagnostic.severity)); });
              holder.appendChild(list);
            }
          }

          var lastReloadSeen = "";
          function refreshHealth() {
            return call("GET", "health").then(function (reply) {
              if (reply.status === 401) {
                byId("health").textContent = token
                  ? "The server refused that token: check --admin-token and enter it again."
                  : "This server has an admin token (--admin-token): enter it to see its stubs and requests.";
                return null;
              }
              if (reply.status === 200 && locked) { lock(false); say(""); }
              if (reply.status !== 200 || !reply.json) { byId("health").textContent = "The admin API answered: " + problem(reply); return null; }
              var health = reply.json;
              byId("origin").textContent = health.baseURL;
              byId("health").textContent = count(health.stubs, "stub") + " from files"
                + (health.runtimeStubs ? " + " + health.runtimeStubs + " added at run time" : "") + " · "
                + count(health.journalEntries, "request") + " in the journal · " + count(health.connections, "connection")
                + " · up " + Math.round(health.uptimeSeconds) + " s · " + count(health.reloads, "reload");
              var reloadKey = JSON.stringify(health.lastReload || null);
              if (reloadKey !== lastReloadSeen) { lastReloadSeen = reloadKey; showReload(health.lastReload); }
              return health;
            });
          }

          var journalSeen = "";
          function refreshJournal(total) {
            var offset = Math.max(0, total - 100);
            return call("GET", "journal?offset=" + offset + "&limit=100").then(function (reply) {
              if (reply.status !== 200 || !reply.json) { return; }
              var entries = reply.json.entries;
              var key = reply.json.total + ":" + (entries.length ? entries[entries.length - 1].date + entries[entries.length - 1].url : "");
              if (key === journalSeen) { return; }
              journalSeen = key;
              byId("journal-count").textContent = "(" + reply.json.total + ", newest first)";
              var body = byId("journal").tBodies[0];
              body.textContent = "";
              entries.slice().reverse().forEach(function (entry) {
                var outcome = entry.outcome;
                var row = element("tr", null, "outcome-" + outcome.kind);
                row.appendChild(element("td", entry.date.slice(11, 23)));
                row.appendChild(element("td", entry.method));
                row.appendChild(element("td", entry.path));
                row.appendChild(element("td", outcome.status !== undefined ? outcome.status : outcome.kind === "unmatched" ? 404 : ""));
                var answered = element("td");
                if (outcome.kind === "stubbed") {
                  answered.textContent = outcome.stub + (outcome.failure ? " (" + outcome.failure + ")" : "");
                } else if (outcome.kind === "unmatched") {
                  var details = element("details");
                  details.appendChild(element("summary", "no stub: near misses"));
                  details.appendChild(element("pre", outcome.detail));
                  answered.appendChild(details);
                } else {
                  answered.textContent = outcome.kind + (outcome.message ? ": " + outcome.message : "");
                }
                row.appendChild(answered);
                body.appendChild(row);
              });
            });
          }

          function removeButton(stub) {
            var remove = element("button", "Remove");
            remove.type = "button";
            remove.addEventListener("click", function () {
              call("DELETE", "stubs/" + encodeURIComponent(stub.id)).then(function (reply) {
                say(reply.status === 200 ? "Removed " + stub.id + "." : "Could not remove " + stub.id + ": " + problem(reply));
                refreshStubs();
              });
            });
            return remove;
          }
          function refreshStubs() {
            var query = byId("stub-filter").value.trim();
            return call("GET", "stubs?limit=500" + (query ? "&q=" + encodeURIComponent(query) : "")).then(function (reply) {
              if (reply.status !== 200 || !reply.json) { return; }
              var listed = reply.json.stubs;
              byId("stub-count").textContent = "(" + reply.json.count + (query ? " matching" : "") + ", " + reply.json.runtimeCount + " added at run time"
                + (listed.length < reply.json.count ? "; the first " + listed.length + " shown" : "") + ")";
              var body = byId("stubs").tBodies[0];
              body.textContent = "";
              listed.forEach(function (stub) {
                var row = element("tr", null, stub.origin + (stub.shadowed ? " shadowed" : ""));
                row.appendChild(element("td", stub.origin, "badge " + stub.origin));
                row.appendChild(element("td", stub.method === null ? "any" : stub.method));
                row.appendChild(element("td", stub.path));
                var rules = (stub.matches || []).slice();
                // Files at the top of the stub folder are each their own "scenario" of ".": not worth a word.
                if (stub.scenario && stub.scenario.useCase !== ".") { rules.push("scenario " + stub.scenario.useCase + " / " + stub.scenario.name); }
                if (stub.priority) { rules.push("priority " + stub.priority); }
                row.appendChild(element("td", rules.join("; ")));
                row.appendChild(element("td", stub.failure || stub.status));
                row.appendChild(element("td", stub.name));
                row.appendChild(element("td", stub.source, "source"));
                var actions = element("td");
                if (stub.origin === "runtime") { actions.appendChild(removeButton(stub)); }
                row.appendChild(actions);
                body.appendChild(row);
              });
            });
          }

          var scenariosSeen = "";
          function refreshScenarios() {
            return call("GET", "scenarios").then(function (reply) {
              if (reply.status !== 200 || !reply.json) { return; }
              var key = JSON.stringify(reply.json.useCases);
              if (key === scenariosSeen) { return; }
              scenariosSeen = key;
              var holder = byId("scenarios");
              holder.textContent = "";
              var choices = reply.json.useCases.filter(function (useCase) { return useCase.scenarios.length > 1 || useCase.active; });
              if (choices.length === 0) { holder.appendChild(element("p", "No use case has more than one scenario.", "hint")); return; }
              choices.forEach(function (useCase) {
                var line = element("p"), label = element("label", (useCase.useCase === "." ? "(top folder)" : useCase.useCase) + " "), select = element("select");
                var any = element("option", "(none selected: every scenario competes)");
                any.value = "";
                select.appendChild(any);
                useCase.scenarios.forEach(function (name) {
                  var option = element("option", name);
                  option.value = name;
                  option.selected = useCase.active === name;
                  select.appendChild(option);
                });
                select.addEventListener("change", function () {
                  var path = "scenarios/" + useCase.useCase.split("/").map(encodeURIComponent).join("/");
                  var change = select.value === "" ? call("DELETE", path) : call("PUT", path, JSON.stringify({ scenario: select.value }));
                  change.then(function (answer) {
                    say(answer.status === 200 ? useCase.useCase + ": " + (select.value || "none selected") + "." : "Could not select: " + problem(answer));
                    scenariosSeen = "";
                    refreshScenarios();
                  });
                });
                label.appendChild(select);
                line.appendChild(label);
                holder.appendChild(line);
              });
            });
          }

          function tick() {
            refreshHealth().then(function (health) { if (health) { refreshJournal(health.journalEntries); } });
          }
          function action(id, method, path, done) {
            byId(id).addEventListener("click", function () {
              call(method, path, method === "POST" ? "" : undefined).then(function (reply) {
                say(done(reply));
                journalSeen = "";
                tick();
                refreshStubs();
              });
            });
          }
          action("reload-button", "POST", "reload", function (reply) { return reply.json && reply.json.message ? reply.json.message : problem(reply); });
          action("reset-button", "POST", "reset", function (reply) {
            return reply.status === 200 ? "Back to the files: " + reply.json.runtimeStubsRemoved + " runtime stubs removed, journal and scenarios cleared." : problem(reply);
          });
          action("clear-journal-button", "DELETE", "journal", function (reply) { return reply.status === 200 ? reply.json.cleared + " requests cleared." : problem(reply); });

          var editor = element("textarea");
          editor.setAttribute("aria-label", "A JSON stub");
          editor.spellcheck = false;
          editor.value = '{\\n  "request": {"method": "GET", "path": "/hello"},\\n  "response": {"status": 200, "headers": {"Content-Type": "text/plain"}, "bodyText": "hello"}\\n}';
          byId("add-stub-editor").appendChild(editor);
          byId("add-stub-button").addEventListener("click", function () {
            call("POST", "stubs", editor.value).then(function (reply) {
              byId("add-stub-result").textContent = reply.status === 201
                ? "Added " + reply.json.stubs.map(function (stub) { return stub.id; }).join(", ") + "."
                : problem(reply);
              refreshStubs();
            });
          });

          var filterTimer = null;
          byId("stub-filter").addEventListener("input", function () { clearTimeout(filterTimer); filterTimer = setTimeout(refreshStubs, 200); });
          byId("use-token").addEventListener("click", function () {
            token = byId("token").value;
            sessionStorage.setItem(TOKEN_KEY, token);
            tick(); refreshStubs(); refreshScenarios();
          });

          tick();
          refreshStubs();
          refreshScenarios();
          setInterval(tick, 1000);
          setInterval(function () { refreshStubs(); refreshScenarios(); }, 5000);
        })();
        """
}
