// Ludibot sandbox: a Discord-like channel driven through the sandbox's JSON API.
"use strict";
const S = { users: [], channels: [], commands: [], labels: {}, names: { users: {}, channels: {} }, user: null,
            channel: null, changes: -1, key: "", busy: false, older: [], hasMore: false, locale: null };
const $ = (id) => document.getElementById(id);
const L = (k, params) => { let s = S.labels[k] || k; for (const [n, v] of Object.entries(params || {})) s = s.replace("{" + n + "}", v); return s; };

async function api(path, body) {
  const opts = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch(path, opts);
  return r.json();
}

function toast(text) {
  const t = $("toast"); t.textContent = text; t.hidden = false;
  clearTimeout(toast.timer); toast.timer = setTimeout(() => { t.hidden = true; }, 5000);
}

function escapeHtml(s) { return s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c])); }

// Discord's timestamp styles: <t:UNIX:STYLE>
function timestamp(unix, style) {
  const d = new Date(unix * 1000); const lang = document.documentElement.lang || "fr";
  const fmt = (o) => new Intl.DateTimeFormat(lang, o).format(d);
  switch (style) {
    case "t": return fmt({ hour: "2-digit", minute: "2-digit" });
    case "T": return fmt({ hour: "2-digit", minute: "2-digit", second: "2-digit" });
    case "d": return fmt({ day: "2-digit", month: "2-digit", year: "numeric" });
    case "D": return fmt({ day: "numeric", month: "long", year: "numeric" });
    case "F": return fmt({ weekday: "long", day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit" });
    case "R": {
      const diff = unix - Date.now() / 1000; const abs = Math.abs(diff);
      const rtf = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });
      for (const [unit, sec] of [["year", 31536000], ["month", 2592000], ["day", 86400], ["hour", 3600], ["minute", 60]]) {
        if (abs >= sec) return rtf.format(Math.round(diff / sec), unit);
      }
      return rtf.format(Math.round(diff), "second");
    }
    default: return fmt({ day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit" });
  }
}

// Discord markdown, the part bots use: code blocks, inline code, masked links, bold, italics, underline,
// strike-through, headings, quotes, and the <@user>, <@&role>, <#channel>, <t:…> tokens.
function markdown(raw) {
  const stash = [];
  const keep = (html) => { stash.push(html); return "\u0000" + (stash.length - 1) + "\u0000"; };
  let s = raw.replace(/```(?:[a-z0-9_+-]*\n)?([\s\S]*?)```/gi, (_, code) => keep(`<pre class="code">${escapeHtml(code)}</pre>`));
  s = s.replace(/`([^`\n]+)`/g, (_, code) => keep(`<code>${escapeHtml(code)}</code>`));
  s = s.replace(/\[([^\]\n]+)\]\(<?(https?:\/\/[^\s)>]+)>?\)/g,
    (_, text, url) => keep(`<a href="${escapeHtml(url)}" target="_blank" rel="noopener noreferrer">${escapeHtml(text)}</a>`));
  s = s.replace(/<t:(-?\d+)(?::([tTdDfFR]))?>/g, (_, unix, style) =>
    keep(`<span class="timestamp" title="${escapeHtml(new Date(unix * 1000).toLocaleString())}">${escapeHtml(timestamp(+unix, style))}</span>`));
  s = s.replace(/<@!?(\d+)>/g, (_, id) => keep(`<span class="mention">@${escapeHtml(S.names.users[id] || "?")}</span>`));
  s = s.replace(/<@&(\d+)>/g, () => keep(`<span class="mention">@role</span>`));
  s = s.replace(/<#(\d+)>/g, (_, id) => keep(`<span class="mention channel-mention">#${escapeHtml(S.names.channels[id] || "?")}</span>`));
  s = escapeHtml(s);
  s = s.replace(/^### (.+)$/gm, "<h3>$1</h3>").replace(/^## (.+)$/gm, "<h2>$1</h2>").replace(/^# (.+)$/gm, "<h1>$1</h1>");
  s = s.replace(/^-# (.+)$/gm, '<small class="subtext">$1</small>').replace(/^&gt; (.+)$/gm, "<blockquote>$1</blockquote>");
  s = s.replace(/\*\*(.+?)\*\*/g, "<b>$1</b>").replace(/__(.+?)__/g, "<u>$1</u>").replace(/~~(.+?)~~/g, "<s>$1</s>");
  s = s.replace(/(^|[^*\w])\*([^*\n]+?)\*(?!\w)/g, "$1<i>$2</i>").replace(/(^|[^_\w])_([^_\n]+?)_(?!\w)/g, "$1<i>$2</i>");
  return s.replace(/\u0000(\d+)\u0000/g, (_, i) => stash[+i]);
}

function renderSidebar() {
  $("players").innerHTML = ""; $("channels").innerHTML = "";
  for (const u of S.users) {
    const b = document.createElement("button");
    b.className = "player" + (u.id === S.user ? " active" : ""); b.textContent = u.name; b.dataset.testid = "player-" + u.name;
    b.onclick = () => { S.user = u.id; S.changes = -1; S.older = []; renderSidebar(); refresh();
                        if (u.locale !== S.locale) loadCommands(); };
    $("players").appendChild(b);
  }
  for (const c of S.channels) {
    const b = document.createElement("button");
    b.className = "channel" + (c.id === S.channel ? " active" : ""); b.textContent = "# " + c.name;
    b.onclick = () => { S.channel = c.id; S.changes = -1; S.older = []; renderSidebar(); refresh(); };
    $("channels").appendChild(b);
  }
  const ch = S.channels.find((c) => c.id === S.channel);
  const me = S.users.find((u) => u.id === S.user);
  $("channel-title").textContent = (ch ? "# " + ch.name : "") + "  —  " + L("playing_as", { name: me ? me.name : "" });
}

function renderComponents(msg, box) {
  for (const row of msg.components || []) {
    const div = document.createElement("div"); div.className = "comp-row";
    for (const c of row.components || []) {
      if (c.type === 2) {
        const b = document.createElement("button");
        b.className = "comp style-" + (c.style || 2); b.textContent = (c.emoji && c.emoji.name ? c.emoji.name + " " : "") + (c.label || "");
        b.disabled = !!c.disabled; b.dataset.customId = c.custom_id || "";
        b.onclick = () => act("/api/click", { user: S.user, message: msg.id, custom_id: c.custom_id });
        div.appendChild(b);
      } else if (c.type === 3) {
        const sel = document.createElement("select"); sel.dataset.customId = c.custom_id;
        if ((c.max_values || 1) > 1) sel.multiple = true;
        const ph = document.createElement("option"); ph.textContent = c.placeholder || "…"; ph.value = ""; ph.disabled = true; ph.selected = true;
        if (!sel.multiple) sel.appendChild(ph);
        for (const o of c.options || []) { const op = document.createElement("option"); op.value = o.value; op.textContent = o.label; sel.appendChild(op); }
        sel.onchange = () => {
          const values = Array.from(sel.selectedOptions).map((o) => o.value).filter((v) => v);
          if (!sel.multiple || values.length >= (c.min_values || 1)) act("/api/select", { user: S.user, message: msg.id, custom_id: c.custom_id, values });
        };
        div.appendChild(sel);
      }
    }
    box.appendChild(div);
  }
}

function scrollToEnd() { const box = $("messages"); box.scrollTop = box.scrollHeight; }

function renderMessages(list) {
  const box = $("messages"); const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 80;
  const stick = atBottom || S.forceScroll; S.forceScroll = false;
  const anchor = stick ? null : box.scrollHeight - box.scrollTop;
  box.innerHTML = "";
  if (S.hasMore) {
    const more = document.createElement("button"); more.id = "older"; more.textContent = L("older_messages");
    more.dataset.testid = "older"; more.onclick = loadOlder; box.appendChild(more);
  }
  for (const m of S.older.concat(list)) {
    const div = document.createElement("div"); div.className = "msg" + (m.ephemeral ? " ephemeral" : ""); div.dataset.id = m.id;
    const head = document.createElement("div");
    head.innerHTML = `<span class="author${m.bot ? " bot" : ""}">${escapeHtml(m.author)}</span>` +
      (m.ephemeral ? `<span class="eph">${escapeHtml(L("only_you"))}</span>` : "");
    div.appendChild(head);
    if (m.content) { const c = document.createElement("div"); c.className = "content"; c.innerHTML = markdown(m.content); div.appendChild(c); }
    for (const e of m.embeds || []) {
      const c = document.createElement("div"); c.className = "content";
      c.innerHTML = markdown([e.title, e.description].filter(Boolean).join("\n")); div.appendChild(c);
    }
    for (const url of m.attachments) {
      const img = document.createElement("img"); img.src = url; img.alt = "image";
      // scroll again once the picture has its height, so the newest message stays in view
      if (stick) img.addEventListener("load", () => { if (S.stuck) scrollToEnd(); }, { once: true });
      div.appendChild(img);
    }
    for (const f of m.files || []) {
      if (!f.name.endsWith(".png")) { const a = document.createElement("a"); a.href = f.url; a.textContent = f.name; a.download = f.name; div.appendChild(a); }
    }
    renderComponents(m, div);
    box.appendChild(div);
  }
  S.stuck = stick;
  if (stick) scrollToEnd(); else box.scrollTop = box.scrollHeight - anchor;
}

async function loadOlder() {
  const first = S.older.length ? S.older[0] : (S.last && S.last[0]);
  if (!first) return;
  const data = await api(`/api/messages?user=${S.user}&channel=${S.channel}&before=${first.id}`);
  S.older = data.messages.concat(S.older); S.hasMoreOlder = data.has_more; S.hasMore = data.has_more;
  S.forceScroll = false; S.key = ""; renderMessages(S.last || []);
}

async function refresh() {
  if (!S.user || !S.channel) return;
  const data = await api(`/api/messages?user=${S.user}&channel=${S.channel}`);
  $("status").textContent = data.connected ? L("bot_online") : L("bot_offline");
  const key = S.user + ":" + S.channel + ":" + data.changes;
  if (key !== S.key) {
    S.key = key; S.last = data.messages;
    // older pages stay loaded; drop what the newest page now contains
    const ids = new Set(data.messages.map((m) => m.id)); S.older = S.older.filter((m) => !ids.has(m.id));
    S.hasMore = S.older.length ? !!S.hasMoreOlder : data.has_more;
    renderMessages(data.messages);
  }
}

async function act(path, body) {
  if (S.busy) return;
  S.busy = true; S.forceScroll = true;
  try {
    const r = await api(path, body);
    if (!r.ok) toast(r.error || L("error"));
  } finally { S.busy = false; await refresh(); }
}

function currentCommand() { return S.commands.find((c) => c.path === $("command-path").value.trim().replace(/^\//, "")); }

function optionValues() {
  const out = {};
  for (const el of $("options").querySelectorAll("[data-option]")) {
    const spec = JSON.parse(el.dataset.spec);
    let v = el.type === "checkbox" ? el.checked : el.value;
    if (v === "" || v === null) continue;
    if (spec.type === "integer") v = parseInt(v, 10); else if (spec.type === "number") v = parseFloat(v);
    else if (spec.type === "boolean" && typeof v !== "boolean") v = v === "true";
    else if (spec.choices.length) { const ch = spec.choices.find((c) => c.name === v || String(c.value) === v); if (ch) v = ch.value; }
    out[spec.name] = v;
  }
  return out;
}

function renderOptions() {
  const cmd = currentCommand();
  const path = cmd ? cmd.path : "";
  if (path === S.renderedPath) return;  // keep what the user typed in the option fields
  S.renderedPath = path;
  const box = $("options"); box.innerHTML = "";
  $("command-help").textContent = cmd ? cmd.description : "";
  if (!cmd) return;
  for (const o of cmd.options) {
    const label = document.createElement("label"); label.textContent = o.name + (o.required ? " *" : "") + " — " + o.description;
    let el;
    if (o.choices.length) {
      el = document.createElement("select");
      if (!o.required) { const none = document.createElement("option"); none.value = ""; none.textContent = "—"; el.appendChild(none); }
      for (const c of o.choices) { const op = document.createElement("option"); op.value = c.value; op.textContent = c.name; el.appendChild(op); }
    } else if (o.type === "boolean") {
      el = document.createElement("select");
      for (const [v, t] of [["", "—"], ["true", L("yes")], ["false", L("no")]]) { const op = document.createElement("option"); op.value = v; op.textContent = t; el.appendChild(op); }
    } else if (o.type === "user") {
      el = document.createElement("select");
      const none = document.createElement("option"); none.value = ""; none.textContent = "—"; el.appendChild(none);
      for (const u of S.users) { const op = document.createElement("option"); op.value = u.id; op.textContent = u.name; el.appendChild(op); }
    } else {
      el = document.createElement("input"); el.type = (o.type === "integer" || o.type === "number") ? "number" : "text";
      if (o.min !== null && o.min !== undefined) el.min = o.min; if (o.max !== null && o.max !== undefined) el.max = o.max;
      if (o.autocomplete) {
        const dl = document.createElement("datalist"); dl.id = "ac-" + o.name; el.setAttribute("list", dl.id); label.appendChild(dl);
        el.addEventListener("input", async () => {
          const options = optionValues(); options[o.name] = el.value;
          const r = await api("/api/autocomplete", { user: S.user, channel: S.channel, path: cmd.path, options, focused: o.name });
          dl.innerHTML = "";
          for (const c of (r.choices || [])) { const op = document.createElement("option"); op.value = c.value; op.textContent = c.name; dl.appendChild(op); }
        });
      }
    }
    el.dataset.option = o.name; el.dataset.spec = JSON.stringify(o); el.dataset.testid = "option-" + o.name;
    label.appendChild(el); box.appendChild(label);
  }
}

async function loadCommands() {
  const data = await api(`/api/init?user=${S.user || ""}`);
  const me = data.users.find((u) => u.id === S.user);
  Object.assign(S, { commands: data.commands, names: data.names, locale: me ? me.locale : null });
  const dl = $("command-list"); dl.innerHTML = "";
  for (const c of S.commands) { const op = document.createElement("option"); op.value = c.path; op.textContent = c.description; dl.appendChild(op); }
  S.renderedPath = null; renderOptions();
}

async function init() {
  const data = await api("/api/init");
  Object.assign(S, { users: data.users, channels: data.channels, commands: data.commands, labels: data.labels,
                     names: data.names });
  S.user = S.user || (S.users[0] && S.users[0].id); S.channel = S.channel || (S.channels[0] && S.channels[0].id);
  $("label-players").textContent = L("players"); $("label-channels").textContent = L("channels"); $("send").textContent = L("send");
  $("command-path").placeholder = L("command_placeholder");
  const dl = $("command-list"); dl.innerHTML = "";
  for (const c of S.commands) { const op = document.createElement("option"); op.value = c.path; op.textContent = c.description; dl.appendChild(op); }
  renderSidebar();
  if (!S.commands.length) setTimeout(init, 1000); else await loadCommands();
}

$("command-path").addEventListener("input", renderOptions);
$("command-path").addEventListener("change", renderOptions);
$("command-box").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const cmd = currentCommand();
  if (!cmd) { toast(L("unknown_command")); return; }
  await act("/api/command", { user: S.user, channel: S.channel, path: cmd.path, options: optionValues() });
});

init().then(refresh);
setInterval(refresh, 700);
