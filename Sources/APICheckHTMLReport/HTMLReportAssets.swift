/// The HTML report's style and script, inline (a report is one file that works from `file://`
/// and as a CI artifact) and allowed by their hashes in the page's Content-Security-Policy.
///
/// The script reads the map's data from the `report-data` JSON block and builds every element
/// with DOM calls, writing crawled text only through `textContent`: nothing it shows is parsed
/// as markup. It draws the visible part of the tree only, so a map of 10,000 places opens
/// collapsed below its second level and unfolds on demand.
enum HTMLReportAssets {
    static let style: StaticString = """
        :root { --error: #c62828; --warning: #b26a00; --passed: #2e7d32; --unchecked: #8a8a8a; --line: #d0d4da; --ink: #1d2330; --muted: #5b6372; }
        * { box-sizing: border-box; }
        body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); margin: 0; padding: 0 24px 48px; }
        header { border-bottom: 1px solid var(--line); padding: 16px 0 8px; }
        h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 28px 0 8px; } h3 { font-size: 15px; margin: 0 0 6px; }
        .verdict-failed { color: var(--error); } .verdict-passed { color: var(--passed); } .verdict-incomplete { color: var(--warning); }
        .run, .hint { color: var(--muted); margin: 4px 0; }
        table.counts { margin: 8px 0; } .counts tbody { display: flex; flex-wrap: wrap; gap: 6px 22px; }
        .counts tr { display: flex; flex-direction: column-reverse; } .counts th { font-weight: normal; color: var(--muted); font-size: 12px; text-align: left; }
        .counts td { font-variant-numeric: tabular-nums; font-weight: 600; font-size: 18px; }
        .controls { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 8px 0; }
        .controls input, .controls select, .controls button { font: inherit; padding: 3px 8px; }
        .map-layout { display: grid; grid-template-columns: minmax(0, 1fr) 340px; gap: 12px; }
        #map-canvas { border: 1px solid var(--line); border-radius: 6px; overflow: auto; max-height: 72vh; min-height: 160px; background: #fbfbfc; }
        #map-details { border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; overflow: auto; max-height: 72vh; overflow-wrap: anywhere; }
        #map-details table { border-collapse: collapse; width: 100%; font-size: 12px; } #map-details th, #map-details td { text-align: right; padding: 1px 4px; overflow-wrap: normal; white-space: nowrap; }
        #map-details th:first-child, #map-details td:first-child { text-align: left; }
        svg text { font: 12px system-ui, sans-serif; fill: var(--ink); }
        svg .edge { fill: none; stroke: #aab1bc; stroke-width: 1.2; }
        svg .edge-label { fill: var(--muted); font-size: 11px; }
        svg .node { cursor: pointer; } svg .node circle { stroke: #fff; stroke-width: 1.5; }
        svg .node.error circle { fill: var(--error); } svg .node.warning circle { fill: var(--warning); }
        svg .node.passed circle { fill: var(--passed); } svg .node.unchecked circle { fill: var(--unchecked); } svg .node.root circle { fill: #3f51b5; }
        svg .node.selected circle { stroke: var(--ink); stroke-width: 3; }
        svg .node.match text { font-weight: 700; } svg .dim { opacity: 0.25; }
        svg .toggle { cursor: pointer; fill: #3f51b5; font-weight: 700; }
        .defect-list { padding-left: 20px; } .defect { margin: 0 0 18px; padding: 10px 12px; border: 1px solid var(--line); border-radius: 6px; }
        .defect:target, .defect.focus { outline: 3px solid #3f51b5; }
        .badge { display: inline-block; padding: 0 6px; border-radius: 4px; color: #fff; font-size: 12px; }
        .badge.error { background: var(--error); } .badge.warning { background: var(--warning); }
        .label { margin: 6px 0 2px; color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: 0.04em; }
        .examples, .places { margin: 0; padding-left: 18px; overflow-wrap: anywhere; }
        pre { background: #f3f4f6; padding: 8px; border-radius: 4px; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
        code { font: 12.5px ui-monospace, SFMono-Regular, Menlo, monospace; }
        @media (max-width: 900px) { .map-layout { grid-template-columns: 1fr; } }
        """

    static let script: StaticString = """
        (function () {
          "use strict";
          var source = document.getElementById("report-data");
          if (!source) { return; }
          var data = JSON.parse(source.textContent);
          // The compact form (ReportMap.json) made whole: a parent always comes before its children.
          var nodes = data.nodes.map(function (raw) {
            var methods = (raw.m || []).map(function (m) { return { method: m[0], passed: m[1], failed: m[2], notChecked: m[3], skipped: m[4] }; });
            var checks = methods.reduce(function (sum, m) { return sum + m.passed + m.failed + m.notChecked + m.skipped; }, 0);
            var errors = raw.e || 0, warnings = raw.w || 0;
            var passed = methods.some(function (m) { return m.passed > 0; });
            return {
              label: raw.l, parent: raw.p === undefined ? null : raw.p, methods: methods, checks: checks, errors: errors, warnings: warnings,
              worst: raw.p === undefined ? "root" : errors > 0 ? "error" : warnings > 0 ? "warning" : passed ? "passed" : "unchecked",
              defects: raw.d || [], types: raw.t || [], resources: raw.r || [], moreResources: raw.rm || 0
            };
          });
          nodes.forEach(function (node) {
            var parent = node.parent === null ? null : nodes[node.parent];
            node.depth = parent ? parent.depth + 1 : 0;
            node.key = parent ? parent.key + " → " + node.label : node.label;
          });
          var defectInfo = data.defects || {};
          var children = nodes.map(function () { return []; });
          nodes.forEach(function (node, index) { if (node.parent !== null) { children[node.parent].push(index); } });
          var collapsed = new Uint8Array(nodes.length);
          var matches = null;
          var selected = -1;
          var canvas = document.getElementById("map-canvas");
          var details = document.getElementById("map-details");
          var status = document.getElementById("map-status");
          var SVG = "http://www.w3.org/2000/svg";
          var COLUMN = 230, ROW = 24, PAD = 24;

          function count(number, noun) { return number + " " + noun + (number === 1 ? "" : "s"); }
          function element(name, text, className) {
            var made = document.createElement(name);
            if (text !== undefined && text !== null) { made.textContent = String(text); }
            if (className) { made.className = className; }
            return made;
          }
          function svgElement(name, attributes) {
            var made = document.createElementNS(SVG, name);
            Object.keys(attributes || {}).forEach(function (key) { made.setAttribute(key, String(attributes[key])); });
            return made;
          }
          // The overview: subtrees unfolded breadth first while the map stays within `budget`
          // places, the rest folded (a map of 20,000 places opens with a few hundred).
          var OVERVIEW = 300;
          function foldToOverview(budget) {
            for (var i = 0; i < nodes.length; i++) { collapsed[i] = children[i].length > 0 ? 1 : 0; }
            var shown = 1, queue = [0];
            for (var at = 0; at < queue.length; at++) {
              var index = queue[at];
              if (shown + children[index].length > budget) { continue; }
              collapsed[index] = 0;
              shown += children[index].length;
              Array.prototype.push.apply(queue, children[index]);
            }
          }
          function expandAncestors(index) {
            for (var at = nodes[index].parent; at !== null; at = nodes[at].parent) { collapsed[at] = 0; }
          }
          function hiddenBelow(index) {
            var count = 0, stack = children[index].slice();
            while (stack.length) { var next = stack.pop(); count++; Array.prototype.push.apply(stack, children[next]); }
            return count;
          }

          // Rows: each visible leaf its own, each parent centred on its children; columns: depth.
          function layout() {
            var row = new Float64Array(nodes.length), visible = [], next = 0, stack = [[0, 0]];
            while (stack.length) {
              var top = stack[stack.length - 1], index = top[0];
              var kids = collapsed[index] ? [] : children[index];
              if (top[1] === 0 && (visible.length === 0 || visible[visible.length - 1] !== index)) { visible.push(index); }
              if (top[1] < kids.length) { stack.push([kids[top[1]], 0]); top[1] += 1; continue; }
              stack.pop();
              row[index] = kids.length === 0 ? next++ : (row[kids[0]] + row[kids[kids.length - 1]]) / 2;
            }
            return { visible: visible, row: row, rows: next };
          }

          function methodsText(node) {
            return node.methods.map(function (count) { return count.method; }).join(" ");
          }

          function draw() {
            var placed = layout();
            var deepest = 0;
            placed.visible.forEach(function (index) { deepest = Math.max(deepest, nodes[index].depth); });
            var svg = svgElement("svg", { width: (deepest + 1) * COLUMN + 260, height: Math.max(placed.rows, 1) * ROW + 2 * PAD, role: "img", "aria-label": "Map of the API: " + nodes.length + " places" });
            var edges = svgElement("g"), labels = svgElement("g"), marks = svgElement("g");
            svg.appendChild(edges); svg.appendChild(labels); svg.appendChild(marks);
            function x(index) { return PAD + nodes[index].depth * COLUMN; }
            function y(index) { return PAD + placed.row[index] * ROW; }
            placed.visible.forEach(function (index) {
              var node = nodes[index];
              var dim = matches !== null && !matches.has(index) ? " dim" : "";
              if (node.parent !== null) {
                var px = x(node.parent), py = y(node.parent), cx = x(index), cy = y(index), mid = px + COLUMN / 2;
                edges.appendChild(svgElement("path", { d: "M" + px + "," + py + " C" + mid + "," + py + " " + mid + "," + cy + " " + cx + "," + cy, "class": "edge" + dim }));
                var edgeLabel = svgElement("text", { x: mid + 6, y: cy - 5, "class": "edge-label" + dim });
                edgeLabel.textContent = methodsText(node);
                labels.appendChild(edgeLabel);
              }
              var group = svgElement("g", { "class": "node " + node.worst + (index === selected ? " selected" : "") + (matches !== null && matches.has(index) ? " match" : "") + dim, "data-index": index, id: "place-" + index, tabindex: 0 });
              var radius = 4 + Math.min(9, Math.log2(1 + node.checks) * 1.5);
              group.appendChild(svgElement("circle", { cx: x(index), cy: y(index), r: radius }));
              var title = svgElement("title");
              title.textContent = node.key + " — " + count(node.checks, "check") + ", " + count(node.errors, "error finding") + ", " + count(node.warnings, "warning finding");
              group.appendChild(title);
              var text = svgElement("text", { x: x(index) + radius + 4, y: y(index) + 4 });
              var label = node.label.length > 30 ? node.label.slice(0, 29) + "…" : node.label;
              text.textContent = label;
              group.appendChild(text);
              marks.appendChild(group);
              if (children[index].length > 0) {
                var toggle = svgElement("text", { x: x(index) - radius - 12, y: y(index) + 4, "class": "toggle", "data-toggle": index });
                toggle.textContent = collapsed[index] ? "+" + hiddenBelow(index) : "−";
                var toggleTitle = svgElement("title");
                toggleTitle.textContent = collapsed[index] ? "Unfold this subtree" : "Fold this subtree";
                toggle.appendChild(toggleTitle);
                marks.appendChild(toggle);
              }
            });
            canvas.textContent = "";
            canvas.appendChild(svg);
            var shown = placed.visible.length;
            status.textContent = (matches !== null ? matches.size + " of " + nodes.length + " places match; " : "") + shown + " of " + nodes.length + " places shown";
          }

          function show(index) {
            selected = index;
            var node = nodes[index];
            details.textContent = "";
            details.appendChild(element("h3", node.key));
            details.appendChild(element("p", node.parent === null
              ? "Where the crawl started: the root resource."
              : count(node.checks, "check") + " · " + count(node.errors, "error finding") + " · " + count(node.warnings, "warning finding"), "hint"));
            var link = element("a", "Link to this view");
            link.setAttribute("href", "?place=" + index);
            details.appendChild(link);
            if (node.methods.length > 0) {
              var table = element("table"), head = element("tr");
              ["method", "passed", "failed", "not checked", "skipped"].forEach(function (name) { head.appendChild(element("th", name)); });
              table.appendChild(head);
              node.methods.forEach(function (count) {
                var line = element("tr");
                [count.method, count.passed, count.failed, count.notChecked, count.skipped].forEach(function (value) { line.appendChild(element("td", value)); });
                table.appendChild(line);
              });
              details.appendChild(table);
            }
            function list(title, items) {
              if (!items || items.length === 0) { return; }
              details.appendChild(element("p", title, "label"));
              var holder = element("ul");
              items.forEach(function (item) { holder.appendChild(item); });
              details.appendChild(holder);
            }
            list("Types", node.types.map(function (text) { return element("li", text); }));
            list("Defects here", node.defects.map(function (id) {
              var item = element("li"), link = element("a", (defectInfo[id] ? defectInfo[id].severity + ": " + defectInfo[id].title : id));
              link.setAttribute("href", "#defect-" + id);
              item.appendChild(link);
              return item;
            }));
            var resources = node.resources.map(function (text) { return element("li", text); });
            if (node.moreResources) { resources.push(element("li", "… and " + node.moreResources + " more")); }
            list("Resources", resources);
            if (children[index].length > 0) {
              var fold = element("button", collapsed[index] ? "Unfold subtree (" + hiddenBelow(index) + ")" : "Fold subtree");
              fold.setAttribute("type", "button");
              fold.addEventListener("click", function () { collapsed[index] = collapsed[index] ? 0 : 1; draw(); show(index); });
              details.appendChild(fold);
            }
          }

          function reveal(index) {
            expandAncestors(index);
            selected = index;
            draw();
            show(index);
            remember();
            var mark = document.getElementById("place-" + index);
            if (mark && mark.scrollIntoView) { mark.scrollIntoView({ block: "center", inline: "center" }); }
          }

          canvas.addEventListener("click", function (event) {
            var target = event.target;
            var toggle = target.closest ? target.closest("[data-toggle]") : null;
            if (toggle) {
              var folded = Number(toggle.getAttribute("data-toggle"));
              collapsed[folded] = collapsed[folded] ? 0 : 1;
              draw();
              return;
            }
            var group = target.closest ? target.closest("[data-index]") : null;
            if (group) { selected = Number(group.getAttribute("data-index")); draw(); show(selected); remember(); }
          });
          canvas.addEventListener("keydown", function (event) {
            var group = event.target.closest ? event.target.closest("[data-index]") : null;
            if (group && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); selected = Number(group.getAttribute("data-index")); draw(); show(selected); }
          });

          var search = document.getElementById("map-search"), searchTimer = null;
          search.addEventListener("input", function () {
            clearTimeout(searchTimer);
            searchTimer = setTimeout(function () {
              var query = search.value.trim().toLowerCase();
              if (query === "") { matches = null; draw(); filter(); return; }
              matches = new Set();
              nodes.forEach(function (node, index) {
                if (node.key.toLowerCase().indexOf(query) >= 0) { matches.add(index); expandAncestors(index); }
              });
              draw();
              filter();
            }, 120);
          });
          document.getElementById("map-expand").addEventListener("click", function () { collapsed.fill(0); draw(); });
          document.getElementById("map-collapse").addEventListener("click", function () { foldToOverview(OVERVIEW); draw(); });

          document.addEventListener("click", function (event) {
            var link = event.target.closest ? event.target.closest("a.place-link") : null;
            if (!link) { return; }
            event.preventDefault();
            var index = Number(link.getAttribute("data-place"));
            if (index >= 0 && index < nodes.length) { reveal(index); }
          });

          var ruleFilter = document.getElementById("rule-filter"), severityFilter = document.getElementById("severity-filter");
          var defectStatus = document.getElementById("defects-status");
          // Defects by rule, severity and, while a search is on, places that match it.
          function filter() {
            var rule = ruleFilter ? ruleFilter.value : "", severity = severityFilter ? severityFilter.value : "";
            var items = document.querySelectorAll("li.defect"), shown = 0;
            items.forEach(function (item) {
              var visible = (rule === "" || item.getAttribute("data-rule") === rule) && (severity === "" || item.getAttribute("data-severity") === severity);
              if (visible && matches !== null) {
                var places = item.querySelectorAll("a.place-link");
                visible = Array.prototype.some.call(places, function (place) { return matches.has(Number(place.getAttribute("data-place"))); });
              }
              item.hidden = !visible;
              if (visible) { shown++; }
            });
            if (defectStatus) { defectStatus.textContent = shown + " of " + items.length + " defects shown" + (matches !== null ? " (at the places found)" : ""); }
            remember();
          }
          // The address says what is shown, so it can be shared: ?rule=&severity=&search=&place=.
          function remember() {
            if (!history.replaceState) { return; }
            var parameters = new URLSearchParams();
            if (ruleFilter && ruleFilter.value) { parameters.set("rule", ruleFilter.value); }
            if (severityFilter && severityFilter.value) { parameters.set("severity", severityFilter.value); }
            if (search.value.trim()) { parameters.set("search", search.value.trim()); }
            if (selected >= 0) { parameters.set("place", String(selected)); }
            var query = parameters.toString();
            try { history.replaceState(null, "", (query ? "?" + query : location.pathname) + (location.hash.indexOf("#defect-") === 0 ? location.hash : "")); } catch (ignored) { return; }
          }
          if (ruleFilter) { ruleFilter.addEventListener("change", filter); }
          if (severityFilter) { severityFilter.addEventListener("change", filter); }

          if (nodes.length > OVERVIEW) { foldToOverview(OVERVIEW); }
          var fallback = document.getElementById("map-fallback");
          if (fallback) { fallback.hidden = true; }
          // A view can be shared as a link: ?rule=…&severity=…&search=…&place=N (or #place-N).
          var parameters = new URLSearchParams(location.search);
          var unknown = [];
          function choose(select, name) {
            var value = parameters.get(name);
            if (!select || value === null) { return; }
            var found = false;
            for (var i = 0; i < select.options.length; i++) { if (select.options[i].value === value) { select.selectedIndex = i; found = true; } }
            if (!found) { unknown.push(name + "=" + value + " names no " + name + " of this report"); }
          }
          choose(ruleFilter, "rule");
          choose(severityFilter, "severity");
          var query = (parameters.get("search") || "").trim().toLowerCase();
          if (query !== "") {
            search.value = parameters.get("search");
            matches = new Set();
            nodes.forEach(function (node, index) { if (node.key.toLowerCase().indexOf(query) >= 0) { matches.add(index); expandAncestors(index); } });
          }
          draw();
          filter();
          var hash = /^#place-(\\d+)$/.exec(location.hash), place = parameters.get("place");
          var chosen = hash ? Number(hash[1]) : place !== null ? Number(place) : -1;
          if (chosen >= 0 && chosen < nodes.length) { reveal(chosen); } else if (place !== null) { unknown.push("place=" + place + " is not a place of this map (0–" + (nodes.length - 1) + ")"); }
          if (unknown.length > 0) { status.textContent = "Ignored: " + unknown.join("; ") + ". " + status.textContent; }
          // When the page became usable, for Benchmarks/html-report.sh (milliseconds from navigation).
          document.documentElement.setAttribute("data-map-drawn", "true");
          document.documentElement.setAttribute("data-map-drawn-ms", String(Math.round(performance.now())));
          document.addEventListener("DOMContentLoaded", function () {
            var navigation = performance.getEntriesByType("navigation")[0];
            var loaded = navigation ? navigation.domContentLoadedEventStart : performance.now();
            document.documentElement.setAttribute("data-dom-content-loaded-ms", String(Math.round(loaded)));
          });
        })();
        """
}
