// Ludibot sandbox: a Discord-like channel driven through the sandbox's JSON API.
"use strict";
const S = { users: [], channels: [], threads: [], commands: [], labels: {}, names: { users: {}, channels: {} }, emojis: {},
            user: null, channel: null, changes: -1, key: "", busy: false, older: [], hasMore: false, locale: null,
            forceScroll: true, dismissed: new Set(JSON.parse(localStorage.getItem("ludibot-dismissed") || "[]")) };
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
// strike-through, headings, quotes, and the <@user>, <@&role>, <#channel>, </command:id>, <t:…> tokens.
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
  s = s.replace(/<#(\d+)>/g, (_, id) => keep(S.names.channels[id]
    ? `<a class="mention channel-mention" href="#" data-channel="${id}">#${escapeHtml(S.names.channels[id])}</a>`
    : `<span class="mention channel-mention">#${escapeHtml(L("unknown_channel"))}</span>`));
  // a slash command mention </name sub:id>: Discord shows "/name sub" in the reader's language, clickable;
  // here a click fills the command box
  s = s.replace(/<\/([-_\p{L}\p{N}]{1,32}(?: [-_\p{L}\p{N}]{1,32}){0,2}):(\d{15,21})>/gu, (_, path) => {
    const cmd = S.commands.find((c) => c.path === path); const shown = cmd ? cmd.shown : path;
    return keep(`<a class="mention command-mention" href="#" data-command="${escapeHtml(shown)}">/${escapeHtml(shown)}</a>`);
  });
  s = s.replace(/<(a?):(\w{2,32}):(\d{15,21})>/g, (_, a, name, id) =>
    keep(`<img class="emoji" src="/emoji/${id}" alt=":${escapeHtml(name)}:" title=":${escapeHtml(name)}:">`));
  s = escapeHtml(s);
  s = s.replace(/^### (.+)$/gm, "<h3>$1</h3>").replace(/^## (.+)$/gm, "<h2>$1</h2>").replace(/^# (.+)$/gm, "<h1>$1</h1>");
  s = s.replace(/^-# (.+)$/gm, '<small class="subtext">$1</small>').replace(/^&gt; (.+)$/gm, "<blockquote>$1</blockquote>");
  s = s.replace(/\*\*(.+?)\*\*/g, "<b>$1</b>").replace(/__(.+?)__/g, "<u>$1</u>").replace(/~~(.+?)~~/g, "<s>$1</s>");
  s = s.replace(/(^|[^*\w])\*([^*\n]+?)\*(?!\w)/g, "$1<i>$2</i>").replace(/(^|[^_\w])_([^_\n]+?)_(?!\w)/g, "$1<i>$2</i>");
  return s.replace(/\u0000(\d+)\u0000/g, (_, i) => stash[+i]);
}

function switchChannel(id) {
  S.channel = id; S.changes = -1; S.older = []; S.key = ""; S.forceScroll = true; renderSidebar(); refresh();
}

function renderSidebar() {
  $("players").innerHTML = ""; $("channels").innerHTML = "";
  for (const u of S.users) {
    const row = document.createElement("div"); row.className = "player-row" + (u.id === S.user ? " active" : "");
    const b = document.createElement("button");
    b.className = "player" + (u.id === S.user ? " active" : ""); b.textContent = u.name; b.dataset.testid = "player-" + u.name;
    b.onclick = () => { S.user = u.id; S.changes = -1; S.older = []; S.key = ""; S.forceScroll = true; renderSidebar(); loadCommands(); };
    // the player's Discord client language: what its interactions carry as `locale`, how its client names
    // the commands, and the words of this page when playing as that player
    const lg = document.createElement("button"); lg.className = "lang"; lg.textContent = (u.lang || "fr").toUpperCase();
    lg.dataset.testid = "lang-" + u.name; lg.title = L("client_language", { name: u.name }); lg.setAttribute("aria-label", lg.title);
    lg.onclick = async () => {
      const r = await api("/api/locale", { user: u.id, lang: u.lang === "en" ? "fr" : "en" });
      if (r && r.ok) await loadCommands();
    };
    row.appendChild(b); row.appendChild(lg); $("players").appendChild(row);
  }
  for (const c of S.channels) {
    const b = document.createElement("button");
    b.className = "channel" + (c.id === S.channel ? " active" : ""); b.textContent = "# " + c.name;
    b.dataset.testid = "channel-" + c.name;
    b.onclick = () => switchChannel(c.id);
    $("channels").appendChild(b);
    // a game in its own thread: the thread sits under its channel, as in Discord's channel list
    for (const t of S.threads.filter((x) => x.parent === c.id)) {
      const tb = document.createElement("button");
      tb.className = "channel thread" + (t.id === S.channel ? " active" : "") + (t.archived ? " archived" : "");
      tb.textContent = "↳ " + t.name; tb.title = t.name; tb.dataset.testid = "thread-" + t.name;
      tb.onclick = () => switchChannel(t.id);
      $("channels").appendChild(tb);
    }
  }
  const place = S.channels.find((c) => c.id === S.channel) || S.threads.find((t) => t.id === S.channel);
  const me = S.users.find((u) => u.id === S.user);
  const thread = S.threads.find((t) => t.id === S.channel);
  const parent = thread && S.channels.find((c) => c.id === thread.parent);
  $("channel-title").textContent = (place ? (parent ? "# " + parent.name + " › " + place.name : "# " + place.name) : "") +
    "  —  " + L("playing_as", { name: me ? me.name : "" });
}

function emojiNode(e) {
  if (!e) return null;
  if (e.id) { const img = document.createElement("img"); img.className = "emoji"; img.src = "/emoji/" + e.id; img.alt = ":" + (e.name || "") + ":"; return img; }
  if (e.name) { const span = document.createElement("span"); span.className = "emoji-text"; span.textContent = e.name; return span; }
  return null;
}

function buttonNode(msg, c) {
  const b = document.createElement("button");
  b.className = "comp style-" + (c.style || 2);
  const em = emojiNode(c.emoji); if (em) b.appendChild(em);
  if (c.label) b.appendChild(document.createTextNode((em ? " " : "") + c.label));
  b.disabled = !!c.disabled; b.dataset.customId = c.custom_id || "";
  if (c.style === 5 && c.url) b.onclick = () => window.open(c.url, "_blank", "noopener");
  else b.onclick = () => act("/api/click", { user: S.user, message: msg.id, custom_id: c.custom_id });
  return b;
}

// a string select as Discord draws it: a box that opens a list; an option shows its emoji (a custom
// emoji is a picture), its label and its description; a multiple choice is sent when the list closes
function selectNode(msg, c) {
  const wrap = document.createElement("div"); wrap.className = "select" + (c.disabled ? " disabled" : "");
  wrap.dataset.customId = c.custom_id || "";
  const options = c.options || []; const multi = (c.max_values || 1) > 1;
  const min = c.min_values === undefined || c.min_values === null ? 1 : c.min_values; const max = c.max_values || 1;
  // the page redraws its messages when anything changes: an open list stays open, with what was ticked
  const key = msg.id + ":" + (c.custom_id || ""); const kept = S.openSelect && S.openSelect.key === key ? S.openSelect : null;
  const chosen = kept ? new Set(kept.chosen) : new Set(options.filter((o) => o.default).map((o) => o.value));
  let changed = kept ? kept.changed : false;
  const remember = () => { S.openSelect = { key, chosen: Array.from(chosen), changed }; };
  const head = document.createElement("button"); head.type = "button"; head.className = "select-head"; head.disabled = !!c.disabled;
  head.setAttribute("aria-haspopup", "listbox");
  const list = document.createElement("div"); list.className = "select-list"; list.hidden = true; list.setAttribute("role", "listbox");
  if (multi) list.setAttribute("aria-multiselectable", "true");
  const optionLabel = (o, withDescription) => {
    const span = document.createElement("span"); span.className = "select-label";
    const em = emojiNode(o.emoji); if (em) { span.appendChild(em); span.appendChild(document.createTextNode(" ")); }
    const text = document.createElement("span"); text.textContent = o.label || ""; span.appendChild(text);
    if (withDescription && o.description) { const d = document.createElement("small"); d.className = "select-description"; d.textContent = o.description; span.appendChild(d); }
    return span;
  };
  const drawHead = () => {
    head.innerHTML = ""; const picked = options.filter((o) => chosen.has(o.value));
    const shown = document.createElement("span"); shown.className = "select-shown";
    if (!picked.length) { shown.classList.add("placeholder"); shown.textContent = c.placeholder || "…"; }
    else picked.forEach((o, i) => { if (i) shown.appendChild(document.createTextNode(", ")); shown.appendChild(optionLabel(o, false)); });
    head.appendChild(shown);
    const caret = document.createElement("span"); caret.className = "caret"; caret.textContent = "▾"; head.appendChild(caret);
  };
  const send = () => act("/api/select", { user: S.user, message: msg.id, custom_id: c.custom_id, values: Array.from(chosen) });
  const outside = (ev) => { if (!wrap.isConnected) document.removeEventListener("click", outside, true); else if (!wrap.contains(ev.target)) close(); };
  const close = () => {
    list.hidden = true; wrap.classList.remove("open"); document.removeEventListener("click", outside, true);
    if (S.openSelect && S.openSelect.key === key) S.openSelect = null;
    if (multi && changed && chosen.size >= min) { changed = false; send(); }
  };
  const open = () => { list.hidden = false; wrap.classList.add("open"); document.addEventListener("click", outside, true); remember(); };
  for (const o of options) {
    const item = document.createElement("button"); item.type = "button"; item.className = "select-option";
    item.setAttribute("role", "option"); item.dataset.value = o.value;
    item.appendChild(optionLabel(o, true));
    if (multi) { const mark = document.createElement("span"); mark.className = "check"; item.prepend(mark); }
    const sync = () => { item.classList.toggle("chosen", chosen.has(o.value)); item.setAttribute("aria-selected", chosen.has(o.value) ? "true" : "false"); };
    sync();
    item.onclick = () => {
      if (!multi) {
        chosen.clear(); chosen.add(o.value); drawHead(); list.hidden = true; wrap.classList.remove("open");
        document.removeEventListener("click", outside, true); S.openSelect = null; send(); return;
      }
      if (chosen.has(o.value)) chosen.delete(o.value); else if (chosen.size < max) chosen.add(o.value);
      changed = true; remember(); for (const x of list.children) x.classList.toggle("chosen", chosen.has(x.dataset.value)); drawHead();
    };
    list.appendChild(item);
  }
  head.onclick = () => {
    if (!list.hidden) { close(); return; }
    open(); list.scrollIntoView({ block: "nearest" });
  };
  drawHead(); wrap.appendChild(head); wrap.appendChild(list);
  if (kept && !c.disabled) open();
  return wrap;
}

// a picture in a message opens full size in a viewer when tapped (a spoiler: the first tap reveals it)
function zoomable(img, url) {
  img.classList.add("zoomable");
  img.addEventListener("click", () => {
    if (img.classList.contains("spoiler")) { img.classList.remove("spoiler"); return; }
    const box = $("lightbox"); const big = $("lightbox-img"); big.src = url; big.alt = img.alt; box.hidden = false;
  });
}

function mediaUrl(msg, media) {
  if (!media) return null;
  if (media.attachment_id && msg.media[media.attachment_id]) return msg.media[media.attachment_id];
  return media.url && /^https?:/.test(media.url) ? media.url : null;
}

function imageNode(msg, media, alt, spoiler) {
  const url = mediaUrl(msg, media); if (!url) return null;
  const img = document.createElement("img"); img.src = url; img.alt = alt || "image"; img.loading = "eager";
  if (spoiler) { img.classList.add("spoiler"); img.title = L("spoiler"); }
  zoomable(img, url);
  // scroll again once the picture has its height, so the newest message stays in view
  img.addEventListener("load", () => { if (S.stuck) scrollToEnd(); }, { once: true });
  return img;
}

// Components, legacy (action rows) and V2 (containers, text displays, sections, galleries, separators, files)
function renderTree(msg, comps, box) {
  for (const c of comps || []) {
    let el = null;
    switch (c.type) {
      case 1: {
        el = document.createElement("div"); el.className = "comp-row";
        for (const x of c.components || []) el.appendChild(x.type === 2 ? buttonNode(msg, x) : selectNode(msg, x));
        if ((c.components || []).some((x) => x.type !== 2)) el.classList.add("has-select");
        break;
      }
      case 10: el = document.createElement("div"); el.className = "content text-display"; el.innerHTML = markdown(c.content || ""); break;
      case 9: {
        el = document.createElement("div"); el.className = "section";
        const texts = document.createElement("div"); texts.className = "section-text"; renderTree(msg, c.components, texts); el.appendChild(texts);
        const acc = c.accessory || {};
        if (acc.type === 2) { const a = buttonNode(msg, acc); a.classList.add("accessory"); el.appendChild(a); }
        else if (acc.type === 11) { const img = imageNode(msg, acc.media, acc.description, acc.spoiler); if (img) { img.className = "thumbnail" + (acc.spoiler ? " spoiler" : ""); el.appendChild(img); } }
        break;
      }
      case 12: {
        el = document.createElement("div"); el.className = "gallery n" + Math.min((c.items || []).length, 4);
        for (const it of c.items || []) { const img = imageNode(msg, it.media, it.description, it.spoiler); if (img) el.appendChild(img); }
        break;
      }
      case 13: {
        el = document.createElement("a"); el.className = "file"; const url = mediaUrl(msg, c.file);
        if (url) el.href = url; el.textContent = "📎 " + (c.name || (c.file && c.file.url || "").replace("attachment://", "")); el.download = c.name || "";
        break;
      }
      case 14: el = document.createElement("div"); el.className = "separator" + (c.divider === false ? "" : " divider") + (c.spacing === 2 ? " large" : ""); break;
      case 17: {
        el = document.createElement("div"); el.className = "container" + (c.spoiler ? " spoiler" : "");
        if (c.accent_color !== null && c.accent_color !== undefined) el.style.borderLeftColor = "#" + c.accent_color.toString(16).padStart(6, "0");
        else el.classList.add("no-accent");
        renderTree(msg, c.components, el);
        if (c.spoiler) el.onclick = () => el.classList.remove("spoiler");
        break;
      }
      default: break;
    }
    if (el) box.appendChild(el);
  }
}

function scrollToEnd() { const box = $("messages"); box.scrollTop = box.scrollHeight; }

function renderMessages(list) {
  const box = $("messages"); const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 80;
  const stick = atBottom || S.forceScroll; S.forceScroll = false;
  const anchor = stick ? null : box.scrollHeight - box.scrollTop;
  S.stuck = stick;
  box.innerHTML = "";
  if (S.hasMore) {
    const more = document.createElement("button"); more.id = "older"; more.textContent = L("older_messages");
    more.dataset.testid = "older"; more.onclick = loadOlder; box.appendChild(more);
  }
  for (const m of S.older.concat(list)) {
    if (m.ephemeral && S.dismissed.has(m.id)) continue;
    const div = document.createElement("div"); div.className = "msg" + (m.ephemeral ? " ephemeral" : "") + (m.v2 ? " v2" : ""); div.dataset.id = m.id;
    const head = document.createElement("div");
    head.innerHTML = `<span class="author${m.bot ? " bot" : ""}">${escapeHtml(m.author)}</span>`;
    div.appendChild(head);
    if (m.content) { const c = document.createElement("div"); c.className = "content"; c.innerHTML = markdown(m.content); div.appendChild(c); }
    for (const e of m.embeds || []) {
      const c = document.createElement("div"); c.className = "content";
      c.innerHTML = markdown([e.title, e.description].filter(Boolean).join("\n")); div.appendChild(c);
    }
    for (const url of m.attachments) {
      const img = document.createElement("img"); img.src = url; img.alt = "image";
      img.addEventListener("load", () => { if (S.stuck) scrollToEnd(); }, { once: true });
      zoomable(img, url); div.appendChild(img);
    }
    for (const f of m.files || []) {
      const a = document.createElement("a"); a.className = "file"; a.href = f.url; a.textContent = "📎 " + f.name; a.download = f.name; div.appendChild(a);
    }
    renderTree(m, m.components, div);
    if (m.ephemeral) {  // Discord's footer of a private answer: who sees it, and a link that dismisses it
      const foot = document.createElement("div"); foot.className = "eph";
      foot.appendChild(document.createTextNode("👁 " + L("only_you") + " · "));
      const dismiss = document.createElement("a"); dismiss.href = "#"; dismiss.className = "dismiss"; dismiss.dataset.testid = "dismiss";
      dismiss.textContent = L("dismiss"); dismiss.onclick = (ev) => { ev.preventDefault(); dismissMessage(m.id); };
      foot.appendChild(dismiss); div.appendChild(foot);
    }
    box.appendChild(div);
  }
  for (const a of box.querySelectorAll("a[data-channel]")) a.onclick = (ev) => { ev.preventDefault(); switchChannel(a.dataset.channel); };
  for (const a of box.querySelectorAll("a[data-command]")) a.onclick = (ev) => {
    ev.preventDefault(); $("command-path").value = a.dataset.command; renderOptions(); $("command-path").focus();
  };
  if (stick) scrollToEnd(); else box.scrollTop = box.scrollHeight - anchor;
}

function dismissMessage(id) {
  S.dismissed.add(id);
  localStorage.setItem("ludibot-dismissed", JSON.stringify(Array.from(S.dismissed).slice(-500)));
  renderMessages(S.last || []);
}

async function loadOlder() {
  const first = S.older.length ? S.older[0] : (S.last && S.last[0]);
  if (!first) return;
  const data = await api(`/api/messages?user=${S.user}&channel=${S.channel}&before=${first.id}`);
  S.older = data.messages.concat(S.older); S.hasMoreOlder = data.has_more; S.hasMore = data.has_more;
  S.forceScroll = false; S.key = ""; renderMessages(S.last || []);
}

function updateChannels(data) {
  if (!data.channels) return;
  const sig = JSON.stringify([data.channels, data.threads]);
  Object.assign(S.names.channels, data.channel_names || {}); S.emojis = data.emojis || S.emojis;
  if (sig !== S.channelSig) { S.channelSig = sig; S.channels = data.channels; S.threads = data.threads || []; renderSidebar(); }
}

async function refresh() {
  if (!S.user || !S.channel) return;
  const data = await api(`/api/messages?user=${S.user}&channel=${S.channel}`);
  $("status").textContent = data.connected ? L("bot_online") : L("bot_offline");
  updateChannels(data);
  const key = S.user + ":" + S.channel + ":" + data.changes;
  if (key !== S.key) {
    S.key = key; S.last = data.messages;
    // older pages stay loaded; drop what the newest page now contains
    const ids = new Set(data.messages.map((m) => m.id)); S.older = S.older.filter((m) => !ids.has(m.id));
    S.hasMore = S.older.length ? !!S.hasMoreOlder : data.has_more;
    renderMessages(data.messages);
  }
}

// A modal the bot opened (interaction callback 9): Labels holding a text input, a select, radios or
// checkboxes; text displays; the old rows with one labelled text input.
function modalField(c, labelText, description) {
  const wrap = document.createElement("label"); wrap.className = "field";
  const title = document.createElement("span"); title.className = "field-label";
  title.textContent = (labelText || "") + ((c.required !== false && c.type !== 23) ? " *" : ""); wrap.appendChild(title);
  if (description) { const d = document.createElement("span"); d.className = "muted"; d.textContent = description; wrap.appendChild(d); }
  let input;
  if (c.type === 4) {
    input = document.createElement(c.style === 2 ? "textarea" : "input");
    if (c.style !== 2) input.type = "text";
    if (c.placeholder) input.placeholder = c.placeholder; if (c.value) input.value = c.value;
    if (c.min_length) input.minLength = c.min_length; if (c.max_length) input.maxLength = c.max_length;
    input.required = c.required !== false;
  } else if (c.type === 3) {
    input = document.createElement("select"); if ((c.max_values || 1) > 1) input.multiple = true;
    if (!input.multiple) { const ph = document.createElement("option"); ph.value = ""; ph.textContent = c.placeholder || "…"; input.appendChild(ph); }
    for (const o of c.options || []) { const op = document.createElement("option"); op.value = o.value; op.textContent = o.label; if (o.default) op.selected = true; input.appendChild(op); }
    input.required = c.required !== false;
  } else if (c.type === 21 || c.type === 22) {
    input = document.createElement("div"); input.className = "choices";
    for (const o of c.options || []) {
      const l = document.createElement("label"); const box = document.createElement("input");
      box.type = c.type === 21 ? "radio" : "checkbox"; box.name = c.custom_id; box.value = o.value; box.checked = !!o.default;
      l.appendChild(box); l.appendChild(document.createTextNode(" " + o.label)); input.appendChild(l);
    }
  } else if (c.type === 23) {
    input = document.createElement("input"); input.type = "checkbox"; input.checked = !!c.default;
  } else {
    input = document.createElement("span"); input.className = "muted"; input.textContent = L("modal_unsupported");
  }
  input.dataset.modalInput = c.custom_id || ""; input.dataset.kind = String(c.type);
  wrap.appendChild(input);
  return wrap;
}

function modalValue(el) {
  const kind = +el.dataset.kind;
  if (kind === 4) return el.value;
  if (kind === 3) return Array.from(el.selectedOptions).map((o) => o.value).filter((v) => v);
  if (kind === 21) { const c = el.querySelector("input:checked"); return c ? c.value : null; }
  if (kind === 22) return Array.from(el.querySelectorAll("input:checked")).map((i) => i.value);
  if (kind === 23) return el.checked;
  return null;
}

function openModal(modal) {
  const who = S.user;  // the modal is the player's who opened it, even if the page switches player
  const dlg = $("modal"); const form = $("modal-form"); const body = $("modal-body");
  $("modal-title").textContent = modal.title || ""; body.innerHTML = "";
  for (const top of modal.components || []) {
    if (top.type === 18) body.appendChild(modalField(top.component || {}, top.label, top.description));
    else if (top.type === 10) { const t = document.createElement("div"); t.className = "content text-display"; t.innerHTML = markdown(top.content || ""); body.appendChild(t); }
    else if (top.type === 1) for (const c of top.components || []) body.appendChild(modalField(c, c.label, null));
  }
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    const values = {};
    for (const el of body.querySelectorAll("[data-modal-input]")) {
      const v = modalValue(el);
      if (v === null || v === "" || (Array.isArray(v) && !v.length)) continue;
      values[el.dataset.modalInput] = v;
    }
    dlg.close();
    await act("/api/modal", { user: who, modal: modal.id, values });
  };
  $("modal-cancel").onclick = () => dlg.close();
  dlg.showModal();
  const first = body.querySelector("input, textarea, select"); if (first) first.focus();
}

async function act(path, body) {
  if (S.busy) return null;
  S.busy = true; S.forceScroll = true;
  let r = null;
  try {
    r = await api(path, body);
    if (!r.ok) toast(r.error || L("error"));
    else if (r.modal) openModal(r.modal);
  } finally { S.busy = false; S.forceScroll = true; await refresh(); }
  return r;
}

// the command box knows the names the player's Discord client shows (« ludix lancer » in French,
// « ludix start » in English); the interaction carries the registered names (`path`, options' `name`)
const typed = (v) => v.trim().replace(/^\//, "").replace(/\s+/g, " ").toLowerCase();
// as in Discord, options may follow the command's name: « /ludix lancer objectif:50 »
function parseBox() {
  const raw = $("command-path").value.trim().replace(/^\//, "").replace(/\s+/g, " "); const v = raw.toLowerCase();
  let cmd = null;
  for (const c of S.commands) if ((v === c.shown || v.startsWith(c.shown + " ")) && (!cmd || c.shown.length > cmd.shown.length)) cmd = c;
  const given = {};
  if (cmd) {
    const rest = raw.slice(cmd.shown.length).trim();
    for (const part of rest ? rest.split(/ (?=[-_\p{L}\p{N}]{1,32}:)/u) : []) {
      const m = part.match(/^([-_\p{L}\p{N}]{1,32}):\s*(.*)$/u);
      if (m) given[m[1].toLowerCase()] = m[2].trim();
    }
  }
  return { cmd, given };
}
function currentCommand() { return parseBox().cmd; }

function fillTypedOptions() {
  const { given } = parseBox();
  for (const el of $("options").querySelectorAll("[data-option]")) {
    const spec = JSON.parse(el.dataset.spec);
    if (!(spec.shown.toLowerCase() in given)) continue;
    let v = given[spec.shown.toLowerCase()];
    if (el.tagName === "SELECT") {  // a choice, a yes/no or a player, by what the client shows
      const match = Array.from(el.options).find((o) => o.value && (o.value.toLowerCase() === v.toLowerCase() || o.textContent.toLowerCase() === v.toLowerCase()));
      if (!match) continue;
      v = match.value;
    }
    if (el.value !== v) { el.value = v; checkOption(el); }
  }
}

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
  const form = $("command-box");
  form.classList.toggle("has-command", !!cmd); form.classList.toggle("has-options", !!(cmd && cmd.options.length));
  form.classList.remove("collapsed"); drawOptionsToggle();
  if (!cmd) return;
  for (const o of cmd.options) {
    const label = document.createElement("label");
    const title = document.createElement("span"); title.className = "option-title";
    title.textContent = o.shown + (o.required ? " *" : "") + " — " + o.description; label.appendChild(title);
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
    el.dataset.option = o.name; el.dataset.spec = JSON.stringify(o); el.dataset.testid = "option-" + o.shown;
    const error = document.createElement("span"); error.className = "field-error"; error.dataset.testid = "error-" + o.shown;
    error.setAttribute("role", "alert");
    el.addEventListener("input", () => checkOption(el)); el.addEventListener("change", () => checkOption(el));
    label.appendChild(el); label.appendChild(error); box.appendChild(label);
  }
}

// an option over its limit (a number out of its range, a text too long or too short, a required one
// left empty) says why under its field, as Discord's client does, and the command is not sent
function optionProblem(el) {
  const spec = JSON.parse(el.dataset.spec); const v = el.value;
  const has = (x) => x !== null && x !== undefined;
  if (el.validity && el.validity.badInput) return L("option_integer");
  if (v === "" || v === null) return spec.required ? L("option_required") : "";
  if (spec.type === "integer" || spec.type === "number") {
    const n = Number(v);
    if (!Number.isFinite(n) || (spec.type === "integer" && !Number.isInteger(n))) return L("option_integer");
    if (has(spec.min) && has(spec.max) && (n < spec.min || n > spec.max)) return L("option_range", { min: spec.min, max: spec.max });
    if (has(spec.min) && n < spec.min) return L("option_min", { min: spec.min });
    if (has(spec.max) && n > spec.max) return L("option_max", { max: spec.max });
  } else if (spec.type === "string" && !spec.choices.length) {
    const count = Array.from(v).length; const lo = has(spec.min_length) ? spec.min_length : 0;
    const hi = has(spec.max_length) ? spec.max_length : 6000;
    if (count < lo || count > hi) return L("option_length", { min: lo, max: hi, count });
  }
  return "";
}

function checkOption(el) {
  const problem = optionProblem(el);
  const error = el.parentElement.querySelector(".field-error"); if (error) error.textContent = problem;
  el.classList.toggle("invalid", !!problem); el.setAttribute("aria-invalid", problem ? "true" : "false");
  return !problem;
}

function drawOptionsToggle() {
  const form = $("command-box"); const t = $("options-toggle");
  t.hidden = !form.classList.contains("has-options");
  const collapsed = form.classList.contains("collapsed");
  t.textContent = collapsed ? "▸" : "▾"; t.title = L(collapsed ? "options_show" : "options_hide"); t.setAttribute("aria-label", t.title);
  t.setAttribute("aria-expanded", collapsed ? "false" : "true");
}

// the page as the chosen player's Discord client shows it: its words, and the commands as it names them
function applyInit(data) {
  Object.assign(S, { users: data.users, commands: data.commands, labels: data.labels, names: data.names,
                     emojis: data.emojis || S.emojis || {} });
  if (!S.channels.length) Object.assign(S, { channels: data.channels, threads: data.threads || [] });
  S.user = S.user || data.user; S.channel = S.channel || (S.channels[0] && S.channels[0].id);
  const me = S.users.find((u) => u.id === S.user); S.locale = me ? me.locale : null;
  document.documentElement.lang = S.labels.lang || document.documentElement.lang;
  $("label-players").textContent = L("players"); $("label-channels").textContent = L("channels"); $("send").textContent = L("send");
  $("command-path").placeholder = L("command_placeholder");
  $("modal-submit").textContent = L("modal_submit"); $("modal-cancel").textContent = L("modal_cancel");
  $("lightbox-close").textContent = "✕"; $("lightbox-close").title = L("close"); $("lightbox-close").setAttribute("aria-label", L("close"));
  const dl = $("command-list"); dl.innerHTML = "";
  for (const c of S.commands) { const op = document.createElement("option"); op.value = c.shown; op.textContent = c.description; dl.appendChild(op); }
  S.renderedPath = null; renderOptions(); renderSidebar();
  S.key = "";  // the messages' own words (« Ignorer ce message ») follow the player's language
}

async function loadCommands() {
  applyInit(await api(`/api/init?user=${S.user || ""}`));
  await refresh();
}

async function init() {
  const data = await api("/api/init");
  applyInit(data);
  if (!S.commands.length) setTimeout(init, 1000); else await loadCommands();
}

$("command-path").addEventListener("input", () => { renderOptions(); fillTypedOptions(); });
$("command-path").addEventListener("change", () => { renderOptions(); fillTypedOptions(); });
$("command-box").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const cmd = currentCommand();
  if (!cmd) { toast(L("unknown_command")); return; }
  const fields = Array.from($("options").querySelectorAll("[data-option]"));
  const wrong = fields.filter((el) => !checkOption(el));
  if (wrong.length) { $("command-box").classList.remove("collapsed"); drawOptionsToggle(); wrong[0].focus(); return; }
  const r = await act("/api/command", { user: S.user, channel: S.channel, path: cmd.path, options: optionValues() });
  if (r && r.ok) clearCommandBox();  // sent: Discord empties the box; refused by the client: it stays to be fixed
});

$("options-toggle").addEventListener("click", () => { $("command-box").classList.toggle("collapsed"); drawOptionsToggle(); });
$("lightbox").addEventListener("click", () => { $("lightbox").hidden = true; });
document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") $("lightbox").hidden = true; });

function clearCommandBox() {
  $("command-path").value = ""; S.renderedPath = null; renderOptions();
}

init().then(refresh);
setInterval(refresh, 700);
