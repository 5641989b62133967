"use strict";
// Renders the report that rdbgen inspect --html embeds (the JSON of inspect --json) into the
// page: cards, a treemap of memory by key prefix, bars by type and encoding, an expiry
// histogram and tables. Every text goes in through textContent or setAttribute, never as HTML.
(function () {
  const R = JSON.parse(document.getElementById("report").textContent);
  const S = JSON.parse(document.getElementById("settings").textContent);
  const SVG = "http://www.w3.org/2000/svg";
  const palette = ["#3b6fb6", "#d9822b", "#2f9e72", "#c4302b", "#7e57c2", "#00838f", "#ad7a00", "#d04e8a", "#5d7a2a", "#6d4c41", "#3f51b5", "#e65100"];
  const typeColor = {string: "#3b6fb6", list: "#2f9e72", set: "#d9822b", zset: "#7e57c2", hash: "#c4302b", stream: "#00838f", module: "#6d4c41"};

  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    for (const k of kids) if (k !== null && k !== undefined) e.append(k instanceof Node ? k : String(k));
    return e;
  }
  function svg(tag, attrs, ...kids) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    for (const k of kids) if (k !== null && k !== undefined) e.append(k instanceof Node ? k : String(k));
    return e;
  }
  const int = (n) => Number(n).toLocaleString("en-US");
  function bytes(n) {
    if (n < 1024) return n + " B";
    let div = 1024, exp = 0;
    for (let m = Math.floor(n / 1024); m >= 1024; m = Math.floor(m / 1024)) { div *= 1024; exp++; }
    return (n / div).toFixed(1) + " " + "KMGTPE"[exp] + "iB";
  }
  const list = (a) => a || []; // JSON null for an empty list
  const time = (ms) => new Date(ms).toISOString().replace(".000Z", "Z");
  const pct = (part, whole) => whole > 0 ? (100 * part / whole).toFixed(1) + "%" : "–";
  // num is a table cell of a figure: the exact value in data-value, shown as text.
  function num(field, value, text) {
    return el("td", {class: "num", "data-field": field, "data-value": String(value)}, text === undefined ? int(value) : text);
  }
  function table(id, head, rows) {
    const t = el("table", {id});
    t.append(el("thead", {}, el("tr", {}, ...head.map(([h, cls]) => el("th", cls ? {class: cls} : {}, h)))));
    const b = el("tbody");
    rows.forEach((r) => b.append(r));
    t.append(b);
    return t;
  }
  function section(id, title, ...kids) { return el("section", {id}, el("h2", {}, title), ...kids); }
  function note(text) { return el("p", {class: "note"}, text); }

  // hbars draws horizontal bars: items of {label, value, text, color}.
  function hbars(id, items) {
    const W = 540, row = 24, lw = 150, vw = 150;
    const H = Math.max(row * items.length, row);
    const max = Math.max(1, ...items.map((i) => i.value));
    const g = svg("svg", {id, class: "bars", viewBox: `0 0 ${W} ${H}`, role: "img"});
    items.forEach((it, i) => {
      const y = i * row;
      const w = Math.max(it.value > 0 ? 1 : 0, (W - lw - vw) * it.value / max);
      const bar = svg("g", {"data-label": it.label, "data-value": String(it.value)});
      bar.append(svg("title", {}, `${it.label}: ${it.text}`));
      bar.append(svg("text", {x: lw - 8, y: y + 16, "text-anchor": "end"}, it.label));
      bar.append(svg("rect", {x: lw, y: y + 4, width: w, height: row - 8, rx: 3, fill: it.color || "#3b6fb6"}));
      bar.append(svg("text", {class: "value", x: lw + w + 6, y: y + 16}, it.text));
      g.append(bar);
    });
    return g;
  }

  // --- header and cards
  const app = document.getElementById("app");
  const mem = R.memory;
  const sub = [`RDB ${R.rdb_version}`];
  if (R.aux && R.aux["redis-ver"]) sub.push(`written by Redis ${R.aux["redis-ver"]}`);
  if (R.aux && R.aux["valkey-ver"]) sub.push(`written by Valkey ${R.aux["valkey-ver"]}`);
  sub.push(`${bytes(R.bytes)} (${int(R.bytes)} bytes)`);
  if (R.checksum) sub.push(`CRC-64 ${R.checksum}`);
  if (R.functions) sub.push(`${R.functions} function ${R.functions === 1 ? "library" : "libraries"}`);
  sub.push(`inspected ${time(R.expiry.now_ms)}`);
  app.append(el("h1", {}, "rdbgen inspect ", el("span", {class: "file", id: "file-name"}, S.name || "")));
  app.append(el("p", {class: "sub"}, sub.join(" · ")));
  function card(id, label, value, detail, main, raw) {
    return el("div", {class: main ? "card main" : "card", id, "data-value": String(raw)},
      el("div", {class: "label"}, label), el("div", {class: "value"}, value), el("div", {class: "detail"}, detail));
  }
  app.append(el("div", {class: "cards"},
    card("used-memory", `used_memory on ${mem.target}`, (mem.lower_bound ? "≥ " : "") + bytes(mem.bytes),
      `${int(mem.bytes)} bytes above an empty server` + (mem.lower_bound ? " (a lower bound: module values count at their file size)" : ""), true, mem.bytes),
    card("keys", "keys", int(R.keys), `${int(mem.keys)} held once loaded`, false, R.keys),
    card("expires", "keys with an expiry", int(R.expires), `${int(R.expiry.expired)} already expired`, false, R.expires),
    card("members", "members", int(R.members), "of collections; stream entries", false, R.members),
    card("dbs", "databases", int(list(R.dbs).length), list(R.dbs).map((d) => "db" + d.db).slice(0, 6).join(" ") + (list(R.dbs).length > 6 ? " …" : ""), false, list(R.dbs).length)));

  // --- memory by key prefix: a treemap to click into
  app.append(prefixSection());

  function prefixSection() {
    const rows = R.prefixes || [];
    if (rows.length === 0) return section("prefixes", "Memory by key prefix", note("No key prefixes in this report (the file holds no keys, or it was made without prefixes)."));
    const sep = S.separator;
    // The tree: each listed prefix split at the separator into its parts.
    const root = {name: "", full: "", kids: new Map(), row: null};
    for (const p of rows) {
      if (p.other) { root.kids.set("\u0000other", {name: "(other prefixes)", full: "", kids: new Map(), row: p, other: true}); continue; }
      let node = root, at = 0;
      while (at < p.prefix.length) {
        const i = p.prefix.indexOf(sep, at);
        const end = i < 0 ? p.prefix.length : i + sep.length;
        const part = p.prefix.slice(at, end);
        if (!node.kids.has(part)) node.kids.set(part, {name: part, full: p.prefix.slice(0, end), kids: new Map(), row: null});
        node = node.kids.get(part);
        at = end;
      }
      node.row = p;
    }
    const sum = (n, f) => (n.row ? n.row[f] : 0) + [...n.kids.values()].reduce((s, k) => s + sum(k, f), 0);
    const count = (n) => (n.row ? 1 : 0) + [...n.kids.values()].reduce((s, k) => s + count(k), 0);
    // A node that is both a listed prefix and the head of longer ones shows its own row as a child.
    const children = (n) => {
      const out = [...n.kids.values()];
      if (n.row && n.kids.size) out.push({name: n.name + " (the prefix itself)", full: n.full, kids: new Map(), row: n.row});
      return out;
    };
    const metrics = [["memory", "estimated memory", bytes], ["bytes", "file bytes", bytes], ["keys", "keys", int]];
    let metric = metrics[0], path = [root], selected = null;

    const crumbs = el("div", {class: "crumbs", id: "prefix-crumbs"});
    const switcher = el("div", {class: "crumbs"});
    const box = el("div", {id: "treemap"});
    const detail = el("div", {class: "detail-line", id: "prefix-detail"});
    const W = 1100, H = 420;
    const totalMem = sum(root, "memory"), totalBytes = sum(root, "bytes"), totalKeys = sum(root, "keys");

    function describe(n) {
      const k = sum(n, "keys"), b = sum(n, "bytes"), m = sum(n, "memory");
      const what = n.other ? "(other prefixes)" : JSON.stringify(n.full);
      const many = count(n) > 1 ? `, ${count(n)} listed prefixes` : "";
      return `${what}: ${int(k)} keys, ${bytes(b)} in the file, ${bytes(m)} estimated memory (${pct(m, totalMem)} of the prefixes')${many}`;
    }
    function colorOf(n, i) {
      if (n.other) return "#8a94a6";
      const top = path.length > 1 ? path[1] : n;
      const base = palette[[...root.kids.values()].indexOf(top) % palette.length];
      return path.length > 1 ? shade(base, i) : base;
    }
    function shade(hex, i) {
      const f = 1 - Math.min(0.45, 0.08 * (i % 6));
      const c = [1, 3, 5].map((o) => Math.round(parseInt(hex.slice(o, o + 2), 16) * f));
      return "#" + c.map((v) => v.toString(16).padStart(2, "0")).join("");
    }
    function draw() {
      const at = path[path.length - 1];
      try {
        history.replaceState(null, "", at === root ? location.pathname : "#prefix=" + encodeURIComponent(at.full));
      } catch (e) { /* a sandboxed frame keeps its address */ }
      crumbs.replaceChildren();
      path.forEach((n, i) => {
        if (i > 0) crumbs.append(el("span", {class: "sep"}, "›"));
        const b = el("button", {type: "button", "data-depth": String(i)}, i === 0 ? "all prefixes" : n.name);
        b.addEventListener("click", () => { path = path.slice(0, i + 1); selected = null; draw(); });
        crumbs.append(b);
      });
      const items = children(at).map((n) => ({n, v: sum(n, metric[0])})).filter((x) => x.v > 0).sort((a, b) => b.v - a.v);
      const g = svg("svg", {id: "treemap-svg", viewBox: `0 0 ${W} ${H}`, role: "img"});
      g.append(svg("title", {}, `memory by key prefix, by ${metric[1]}`));
      squarify(items, 0, 0, W, H).forEach((t, i) => {
        const n = t.item.n, group = n.kids.size > 0;
        const tile = svg("g", {class: "tile" + (group ? " group" : "") + (n === selected ? " selected" : ""), "data-prefix": n.other ? "(other)" : n.full, "data-value": String(t.item.v)});
        tile.append(svg("title", {}, describe(n) + (group ? " — click to open" : "")));
        tile.append(svg("rect", {x: t.x, y: t.y, width: Math.max(0, t.w), height: Math.max(0, t.h), fill: colorOf(n, i)}));
        if (t.w > 46 && t.h > 20) {
          const label = n.name.length * 7 > t.w - 10 ? n.name.slice(0, Math.max(1, Math.floor((t.w - 16) / 7))) + "…" : n.name;
          tile.append(svg("text", {x: t.x + 6, y: t.y + 16}, label));
          if (t.h > 36) tile.append(svg("text", {class: "small", x: t.x + 6, y: t.y + 31}, metric[2](t.item.v) + (group ? ` · ${count(n)} ▸` : "")));
        }
        tile.addEventListener("click", () => {
          if (group) { path = path.concat(n); selected = null; } else { selected = n; }
          draw();
        });
        g.append(tile);
      });
      if (items.length === 0) g.append(svg("text", {x: 12, y: 24}, `no ${metric[1]} under this prefix`));
      box.replaceChildren(g);
      if (selected) detail.textContent = describe(selected);
      else if (at !== root) detail.textContent = describe(at);
      else detail.textContent = `${count(root)} rows: ${int(totalKeys)} keys, ${bytes(totalBytes)} in the file, ${bytes(totalMem)} estimated memory. Click a prefix to open it or see its figures.`;
    }
    metrics.forEach((m) => {
      const b = el("button", {type: "button", "data-metric": m[0]}, "by " + m[1]);
      b.addEventListener("click", () => { metric = m; draw(); });
      if (switcher.childNodes.length) switcher.append(el("span", {class: "sep"}, "|"));
      switcher.append(b);
    });
    // A link may open a prefix: report.html#prefix=user%3A opens "user:" (clicks keep it up to date).
    const want = location.hash.startsWith("#prefix=") ? decodeURIComponent(location.hash.slice(8)) : "";
    for (let n = root; want && n.kids.size;) {
      const next = [...n.kids.values()].find((k) => k.kids.size && want.startsWith(k.full));
      if (!next) break;
      path.push(next);
      n = next;
    }
    draw();
    const tableRows = rows.map((p) => el("tr", {"data-prefix": p.other ? "(other)" : p.prefix},
      el("td", {class: "key"}, p.other ? "(other)" : JSON.stringify(p.prefix)),
      num("keys", p.keys), num("bytes", p.bytes, bytes(p.bytes)), num("memory", p.memory, bytes(p.memory)),
      el("td", {class: "num"}, pct(p.memory, totalMem))));
    const other = rows.find((p) => p.other);
    const listed = rows.filter((p) => !p.other);
    const bound = !R.prefix_bound ? null : listed.length === 0 ?
      note(`The dump has more distinct prefixes than rdbgen counts apart, and none stands out: none is listed, and each holds at most ${bytes(R.prefix_bound)} of estimated memory.`) :
      note(`Approximate: the dump has more distinct prefixes than rdbgen counts apart, and a prefix not listed may hold up to ${bytes(R.prefix_bound)} of estimated memory.`);
    const hint = other && other.memory > totalMem / 2 ?
      note(`${pct(other.memory, totalMem)} of the memory is in prefixes not listed${listed.length > 0 && listed.every((p) => p.keys === 1) ? `, and each listed prefix is one key: names without ${JSON.stringify(sep)} are their own prefix` : ""}. rdbgen inspect --html with --separator, --depth and --top groups and lists them otherwise.`) : null;
    return section("prefixes", "Memory by key prefix", switcher, crumbs, box, detail, bound, hint,
      listed.length === 0 ? null : note(`The ${listed.length} largest prefixes by estimated memory, ${S.depth} part${S.depth === 1 ? "" : "s"} deep (separator ${JSON.stringify(sep)}), grouped by their leading parts; the rest summed as other. The memory of a prefix is its keys' (names, values, expiries, dict entries); the dict tables belong to no prefix.`),
      table("prefix-table", [["prefix"], ["keys", "num"], ["file bytes", "num"], ["estimated memory", "num"], ["share", "num"]], tableRows));
  }

  // squarify lays items ({v}, largest first) out in the rectangle x, y, w, h as squarified
  // treemap tiles ({item, x, y, w, h}).
  function squarify(items, x, y, w, h) {
    const out = [];
    const total = items.reduce((s, it) => s + it.v, 0);
    if (total <= 0) return out;
    let rest = items.map((it) => ({it, a: it.v * w * h / total}));
    const worst = (row, side) => {
      const s = row.reduce((t, c) => t + c.a, 0);
      const mx = Math.max(...row.map((c) => c.a)), mn = Math.min(...row.map((c) => c.a));
      return Math.max(side * side * mx / (s * s), s * s / (side * side * mn));
    };
    while (rest.length) {
      const side = Math.min(w, h);
      let row = [], best = Infinity, i = 0;
      for (; i < rest.length; i++) {
        const r = worst(row.concat(rest[i]), side);
        if (row.length && r > best) break;
        row.push(rest[i]);
        best = r;
      }
      rest = rest.slice(row.length);
      const thick = row.reduce((t, c) => t + c.a, 0) / side;
      let off = 0;
      for (const c of row) {
        const len = c.a / thick;
        out.push(w >= h ? {item: c.it, x, y: y + off, w: thick, h: len} : {item: c.it, x: x + off, y, w: len, h: thick});
        off += len;
      }
      if (w >= h) { x += thick; w -= thick; } else { y += thick; h -= thick; }
    }
    return out;
  }

  // --- by type and by encoding
  const memByType = new Map(list(mem.types).map((t) => [t.type, t]));
  const typeRows = list(R.types).map((t) => {
    const m = memByType.get(t.type) || {keys: 0, bytes: 0};
    return el("tr", {"data-type": t.type},
      el("td", {}, el("span", {class: "swatch", "data-type": t.type}), t.type), num("keys", t.keys), num("members", t.members),
      num("bytes", t.bytes, bytes(t.bytes)), num("memory", m.bytes, bytes(m.bytes)));
  });
  const typeSection = section("types", "Memory and keys by type",
    hbars("type-bars", list(mem.types).map((t) => ({label: t.type, value: t.bytes, text: `${bytes(t.bytes)} · ${int(t.keys)} keys`, color: typeColor[t.type]}))),
    table("type-table", [["type"], ["keys", "num"], ["members", "num"], ["file bytes", "num"], ["estimated memory", "num"]], typeRows),
    note(`Estimated memory on ${mem.target}; the dict tables (${bytes(mem.tables)}) belong to no type.`));
  const encRows = list(mem.encodings).map((e) => el("tr", {"data-encoding": e.type + " " + e.encoding},
    el("td", {}, `${e.type} ${e.encoding}`), num("keys", e.keys), num("memory", e.bytes, bytes(e.bytes))));
  const fileEncRows = list(R.encodings).map((e) => el("tr", {"data-encoding": e.encoding}, el("td", {}, e.encoding), num("keys", e.keys)));
  const encSection = section("encodings", "Memory and keys by encoding",
    hbars("encoding-bars", list(mem.encodings).map((e) => ({label: `${e.type} ${e.encoding}`, value: e.bytes, text: `${bytes(e.bytes)} · ${int(e.keys)} keys`, color: typeColor[e.type]}))),
    table("encoding-table", [["on the server (OBJECT ENCODING)"], ["keys", "num"], ["estimated memory", "num"]], encRows),
    table("file-encoding-table", [["in the file"], ["keys", "num"]], fileEncRows));
  app.append(el("div", {class: "grid2"}, typeSection, encSection));
  typeSection.querySelectorAll(".swatch").forEach((s) => { s.style.background = typeColor[s.dataset.type] || "#888"; });

  // --- expiry histogram
  function expirySection() {
    const x = R.expiry;
    const kids = [];
    if (x.keys === 0) {
      kids.push(note("No key has an expiry."));
    } else {
      const W = 1100, H = 190, bottom = 150, left = 10;
      const hist = list(x.histogram), n = hist.length, slot = (W - left) / n;
      const max = Math.max(1, ...hist.map((b) => b.keys));
      const g = svg("svg", {id: "expiry-svg", class: "bars", viewBox: `0 0 ${W} ${H}`, role: "img"});
      g.append(svg("line", {class: "axis", x1: 0, x2: W, y1: bottom, y2: bottom}));
      hist.forEach((b, i) => {
        const h = (bottom - 24) * b.keys / max, bx = left + i * slot + slot * 0.15;
        const bar = svg("g", {"data-within": b.within, "data-value": String(b.keys)});
        bar.append(svg("title", {}, `${b.within === "expired" ? "already expired" : b.within === "later" ? "later than 365 days" : "within " + b.within}: ${int(b.keys)} keys`));
        bar.append(svg("rect", {x: bx, y: bottom - h, width: slot * 0.7, height: Math.max(h, b.keys > 0 ? 1 : 0), rx: 3, fill: b.within === "expired" ? "#c4302b" : "#3b6fb6"}));
        bar.append(svg("text", {class: "value", x: bx + slot * 0.35, y: bottom - h - 6, "text-anchor": "middle"}, int(b.keys)));
        bar.append(svg("text", {x: bx + slot * 0.35, y: bottom + 18, "text-anchor": "middle"}, b.within === "expired" ? "expired" : b.within === "later" ? "> 365d" : "≤ " + b.within));
        g.append(bar);
      });
      kids.push(g, note(`${int(x.keys)} keys expire; ${int(x.expired)} had already expired at ${time(x.now_ms)} (a server drops them while it loads the file). Earliest ${time(x.earliest_ms)}, last ${time(x.latest_ms)}. Each bar counts the keys that expire after the bar before it and within its span.`));
    }
    return section("expiry", "Expiries", ...kids);
  }
  app.append(expirySection());

  // --- largest keys
  function keyTable(id, keys) {
    if (!keys || keys.length === 0) return note("None.");
    return table(id, [["key"], ["db", "num"], ["type"], ["file encoding"], ["file bytes", "num"], ["members", "num"], ["expires"]],
      keys.map((k) => el("tr", {"data-key": k.key},
        el("td", {class: "key"}, JSON.stringify(k.key)), num("db", k.db), el("td", {}, k.type), el("td", {}, k.encoding),
        num("bytes", k.bytes, bytes(k.bytes)), num("members", k.members), el("td", {}, k.expire_at_ms ? time(k.expire_at_ms) : ""))));
  }
  app.append(section("largest-size", "Largest keys by size in the file", keyTable("largest-size-table", list(R.largest && R.largest.by_size))),
    section("largest-members", "Largest keys by members", keyTable("largest-members-table", list(R.largest && R.largest.by_members))));

  // --- databases, modules and AUX fields
  const memByDB = new Map(list(mem.dbs).map((d) => [d.db, d]));
  const dbRows = list(R.dbs).map((d) => {
    const m = memByDB.get(d.db) || {bytes: 0};
    return el("tr", {"data-db": String(d.db)}, el("td", {}, "db" + d.db), num("keys", d.keys), num("expires", d.expires),
      num("bytes", d.bytes, bytes(d.bytes)), num("memory", m.bytes, bytes(m.bytes)));
  });
  const dbSection = section("dbs", "Databases", table("db-table", [["db"], ["keys", "num"], ["expires", "num"], ["file bytes", "num"], ["estimated memory", "num"]], dbRows));
  if (list(R.modules).length) dbSection.append(note("Module keys (a server loads them only with their module): " + R.modules.map((m) => `${int(m.count)} ${m.module}`).join(", ")));
  const auxRows = Object.keys(R.aux || {}).sort().map((k) => el("tr", {"data-aux": k}, el("td", {class: "key"}, k), el("td", {class: "key"}, JSON.stringify(R.aux[k]))));
  app.append(el("div", {class: "grid2"}, dbSection, section("aux", "AUX fields", table("aux-table", [["field"], ["value"]], auxRows))));
  app.append(note("Made by rdbgen inspect --html. The report's JSON, as rdbgen inspect --json prints it, is in this page's element with id \"report\"."));
  document.documentElement.setAttribute("data-rendered", "true");
})();
