// Ludibot's board inside Discord. A thin page: one state object, one render(), and the bot's API for
// everything else (who is asking, what they may see, every rule). No text lives here: the page's words
// come from the bot's catalogs (GET api/config), in the player's language.
import {DiscordSDK} from '@discord/embedded-app-sdk';

const $ = (id) => document.getElementById(id);

const state = {
  texts: {},
  token: null,
  instance: null,
  userId: null,
  games: [],
  game: null, // the game shown: its summary (id, kind, version, names, seat, expected…) and view
  pictures: {board: null, mine: null}, // object URLs of the pictures shown
  shown: {board: null, mine: null}, // "game:version" each picture was drawn for
  error: null,
  // the board as a control: the touched pictures' hit maps ({board, mine}), the touches so far, what the
  // server highlights
  // (``choices``: the moves the same touches choose, told apart by their labels: a Tectonic flip's piece)
  touch: {key: null, hits: null, first: [], selected: [], targets: [], preview: null, choices: [], busy: false},
};
const SVG = 'http://www.w3.org/2000/svg';

function t(key, params = {}) {
  const text = state.texts[key] ?? '';
  return text.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ''));
}

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function api(path, {method = 'GET', body, raw = false} = {}) {
  const headers = {};
  if (state.token) headers.Authorization = `Bearer ${state.token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const resp = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  if (!resp.ok) {
    let message = t('page-error');
    try {
      message = (await resp.json()).message || message;
    } catch (e) {
      /* not JSON: the generic message */
    }
    throw new ApiError(resp.status, message);
  }
  return raw ? resp : resp.json();
}

async function loadTexts(lang) {
  const cfg = await api(`api/config${lang ? `?lang=${lang}` : ''}`);
  state.texts = cfg.texts;
  document.documentElement.lang = cfg.lang;
  return cfg;
}

// --- what the page shows -------------------------------------------------------------------------
function statusLine(game) {
  if (!game) return '';
  if (game.status === 'lobby') return t('page-lobby');
  if (game.status !== 'running') return t('page-over');
  if (game.my_turn && game.touch && state.touch.first.length && !state.touch.preview) {
    const maps = Object.values(state.touch.hits || {});
    if (!state.touch.selected.length && state.touch.first.every((r) => !maps.some((h) => h && h.regions[r]))) {
      return `${t('page-your_turn')} ${t('page-touch_outside')}`; // nothing on the picture: the buttons
    }
    const step = state.touch.selected.length ? 'page-touch_next' : 'page-touch';
    return `${t('page-your_turn')} ${t(`${step}-${game.kind}`) || t(step)}`; // a game's own words, if any
  }
  if (game.my_turn) return t('page-your_turn');
  const names = game.expected.map((seat) => game.names[seat]).filter(Boolean);
  return t('page-waiting', {names: names.join(', ')});
}

function render() {
  const game = state.game;
  $('error').hidden = !state.error;
  $('error').textContent = state.error || '';
  $('title').textContent = game ? t('page-title', {game: game.id, kind: t(`page-kind-${game.kind}`)}) : 'Ludibot';
  const status = $('status');
  status.textContent = game ? statusLine(game) : state.games.length ? t('page-choose') : t('page-none');
  status.classList.toggle('mine', Boolean(game && game.my_turn));
  const list = $('games');
  list.hidden = Boolean(game) || state.games.length === 0;
  list.replaceChildren(...state.games.map((g) => {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.textContent = `${t('page-title', {game: g.id, kind: t(`page-kind-${g.kind}`)})} — ${statusLine(g)}`;
    button.classList.toggle('turn', g.my_turn);
    button.addEventListener('click', () => open(g.id));
    item.append(button);
    return item;
  }));
  $('table').hidden = !game;
  $('board').src = state.pictures.board || '';
  $('board').alt = game ? t('page-board_alt') : '';
  const mine = Boolean(game && game.mine && state.pictures.mine);
  $('mine').hidden = $('mine-title').hidden = !mine;
  $('mine-title').textContent = t('page-mine');
  $('mine').src = mine ? state.pictures.mine : '';
  $('mine').hidden = !mine;
  // the picture touched first on top (a hand, one's own board), its title with it
  for (const id of ['mine-title', 'mine-pic']) $(id).classList.toggle('first', Boolean(game && game.touch === 'mine'));
  renderTouch(game);
}

// --- the board as a control: touches, highlighted targets, the preview, « Confirmer » ----------------
// the pictures a game's touches name (Range ta Ludothèque: the table's dice, then one's own kallax)
function touchPictures(game) {
  if (!game || !game.touch) return [];
  return game.touch_pictures && game.touch_pictures.length ? game.touch_pictures : [game.touch];
}

function renderTouch(game) {
  const touch = state.touch;
  const which = game && game.touch;
  const named = touchPictures(game);
  for (const name of ['board', 'mine']) {
    const svg = $(`${name}-hits`);
    const hits = touch.hits && touch.hits[name];
    // a preview that more touches may still change (a Ludime word, one letter longer) keeps the targets
    const active = named.includes(name) && Boolean(hits) && (!touch.preview || touch.preview.open);
    // (an open preview keeps the picture its targets are drawn on: its words say what the move would do)
    if (which === name && touch.preview && !touch.preview.open) $(name).src = touch.preview.picture;
    svg.replaceChildren();
    svg.toggleAttribute('hidden', !active);
    if (!active) continue;
    svg.setAttribute('viewBox', `0 0 ${hits.width} ${hits.height}`);
    svg.setAttribute('preserveAspectRatio', 'none');
    const catcher = document.createElementNS(SVG, 'rect'); // a touch between regions finds the nearest
    catcher.setAttribute('class', 'catch');
    catcher.setAttribute('width', hits.width);
    catcher.setAttribute('height', hits.height);
    svg.append(catcher);
    const shown = [...touch.selected, ...touch.targets.filter((r) => !touch.selected.includes(r))];
    for (const region of shown) {
      const poly = hits.regions[region];
      if (!poly) continue;
      const el = document.createElementNS(SVG, 'polygon');
      el.setAttribute('points', poly.map(([x, y]) => `${x},${y}`).join(' '));
      el.dataset.region = region;
      svg.append(el);
      const order = touch.selected.indexOf(region);
      if (order < 0) continue;
      el.classList.add('picked');
      if (touch.selected.length < 2) continue;
      svg.append(orderMark(poly, hits.width, String(order + 1)));
    }
  }
  renderOutside(game);
  $('choice').hidden = !touch.preview;
  $('preview-text').textContent = touch.preview ? touch.preview.text : '';
  const choices = touch.preview && touch.choices.length > 1 ? touch.choices : [];
  $('choices').hidden = choices.length < 2;
  $('choices').replaceChildren(...choices.map((move, i) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = move.label || String(i + 1);
    button.dataset.choice = String(i);
    button.classList.toggle('picked', i === touch.preview.index);
    button.disabled = touch.busy;
    button.addEventListener('click', () => choose(i).catch(() => {}));
    return button;
  }));
  const picked = $('choices').querySelector('button.picked');  // the one previewed, in sight in its row
  if (picked) picked.scrollIntoView({block: 'nearest', inline: 'nearest'});
  $('confirm').textContent = t('page-confirm');
  $('change').textContent = t('page-change');
  $('confirm').disabled = $('change').disabled = touch.busy;
  document.body.dataset.touch = touch.key && !touch.busy ? `${touch.key}:${touch.selected.length}` +
    (touch.preview ? ':preview' : '') : '';
}

// the order of the touches (a word's letters): a number in a card's top-left corner; beside a wide
// region (a Ludime word of the table, its owner's dot at its left end) in the picture's margin on its
// left, where it hides nothing, or else inside its right end
function orderMark(poly, width, text) {
  const xs = poly.map(([x]) => x);
  const ys = poly.map(([, y]) => y);
  const [left, right, top, bottom] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const size = width / 24;
  const mark = document.createElementNS(SVG, 'text');
  mark.setAttribute('class', 'order');
  mark.setAttribute('font-size', size);
  mark.textContent = text;
  if (right - left > 2.5 * (bottom - top)) {
    const room = left >= 0.7 * size * text.length;
    mark.setAttribute('x', room ? left - width / 240 : right - width / 60);
    mark.setAttribute('y', (top + bottom) / 2 + 0.36 * size);
    mark.setAttribute('text-anchor', 'end');
  } else {
    mark.setAttribute('x', left + width / 60);
    mark.setAttribute('y', top + width / 22);
  }
  return mark;
}

// the regions no picture draws (L'Invincible Armada's « Passer »): buttons under the pictures, touched
// through the same API as a region of the picture
function renderOutside(game) {
  const touch = state.touch;
  const maps = Object.values(touch.hits || {});
  const drawn = (r) => maps.some((hits) => hits && hits.regions[r]);
  const shown = !touch.preview || touch.preview.open ?
    [...new Set([...touch.selected, ...touch.targets, ...(touch.selected.length ? [] : touch.first)])] : [];
  const outside = game && game.touch ? shown.filter((r) => !drawn(r)) : [];
  $('outside').hidden = outside.length === 0;
  $('outside').replaceChildren(...outside.map((region) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = t(`page-region-${region.split(':')[0]}`) || region;
    button.dataset.region = region;
    button.classList.toggle('picked', touch.selected.includes(region));
    button.disabled = touch.busy;
    button.addEventListener('click', () => tapped(region).catch(() => {}));
    return button;
  }));
}

function centre(poly) {
  return [poly.reduce((a, p) => a + p[0], 0) / poly.length, poly.reduce((a, p) => a + p[1], 0) / poly.length];
}

function inside(poly, x, y) {
  let hit = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i];
    const [xj, yj] = poly[j];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) hit = !hit;
  }
  return hit;
}

// the region a pointer names: a highlighted one it is in, else the nearest within a fingertip
function regionAt(svg, event, name) {
  const touch = state.touch;
  const hits = touch.hits[name];
  const box = svg.getBoundingClientRect();
  const scale = hits.width / box.width;
  const x = (event.clientX - box.left) * scale;
  const y = (event.clientY - box.top) * scale;
  const candidates = [...new Set([...touch.targets, ...touch.selected, ...touch.first])]
    .filter((r) => hits.regions[r]);
  const within = candidates.filter((r) => inside(hits.regions[r], x, y));
  if (within.length) return within.find((r) => touch.targets.includes(r)) || within[0];
  let best = null;
  let bestDistance = 24 * scale; // 24 CSS pixels
  for (const r of candidates) {
    const [cx, cy] = centre(hits.regions[r]);
    const distance = Math.hypot(cx - x, cy - y);
    if (distance < bestDistance) [best, bestDistance] = [r, distance];
  }
  return best;
}

async function touchApi(selected) {
  const game = state.game;
  return api(`api/games/${game.id}/touch`, {method: 'POST',
    body: {instance_id: state.instance, version: game.version, selected}});
}

async function loadTouch(game) {
  const key = `${game.id}:${game.version}`;
  if (!game.touch || !game.my_turn) {
    state.touch = {key: null, hits: null, first: [], selected: [], targets: [], preview: null, choices: [],
                   busy: false};
    return;
  }
  if (state.touch.key === key) return;
  const named = touchPictures(game);
  const [answer, ...maps] = await Promise.all([
    api(`api/games/${game.id}/touch`, {method: 'POST',
      body: {instance_id: state.instance, version: game.version, selected: []}}),
    ...named.map((name) => api(`api/games/${game.id}/hits?instance_id=${encodeURIComponent(state.instance)}` +
                               `&which=${name}&v=${game.version}`)),
  ]);
  const hits = Object.fromEntries(named.map((name, i) => [name, maps[i]]));
  state.touch = {key, hits, first: answer.targets, selected: [], targets: answer.targets, preview: null,
                 choices: [], busy: false};
}

async function tapped(region) {
  const touch = state.touch;
  if (touch.busy || (touch.preview && !touch.preview.open) || !region) return;
  let selected;
  if (touch.selected.includes(region)) selected = touch.selected.slice(0, touch.selected.indexOf(region));
  else if (touch.targets.includes(region)) selected = [...touch.selected, region];
  else if (touch.first.includes(region)) selected = [region];
  else return;
  touch.busy = true;
  render();
  try {
    const answer = selected.length ? await touchApi(selected) : {targets: touch.first, moves: []};
    touch.selected = selected;
    touch.targets = answer.targets;
    touch.preview = null;
    touch.choices = answer.moves;
    // a whole move: its preview (still open to more touches when some follow); when the touches choose
    // several moves, the first, the others offered as choices
    if (answer.moves.length) await showPreview(0, answer.targets.length > 0);
    state.error = null;
  } catch (err) {
    state.error = err.message;
    if (err.status === 409) state.touch.key = null; // the game moved on: its new version is fetched
  } finally {
    touch.busy = false;
  }
  if (state.touch.key === null && state.game) await reopen(state.error);
  else render();
}

async function showPreview(index, open) {
  const touch = state.touch;
  const action = touch.choices[index].action;
  const preview = await api(`api/games/${state.game.id}/preview`, {method: 'POST',
    body: {instance_id: state.instance, version: state.game.version, action}});
  touch.preview = {action, index, picture: preview.picture, text: preview.text, open};
}

async function choose(index) {
  const touch = state.touch;
  if (touch.busy || !touch.preview || index === touch.preview.index) return;
  touch.busy = true;
  render();
  try {
    await showPreview(index, touch.preview.open);
    state.error = null;
  } catch (err) {
    state.error = err.message;
    if (err.status === 409) state.touch.key = null;
  } finally {
    touch.busy = false;
  }
  if (state.touch.key === null && state.game) await reopen(state.error);
  else render();
}

async function change() {
  const touch = state.touch;
  if (touch.busy) return;
  touch.preview = null;
  touch.choices = [];
  touch.selected = [];
  touch.targets = touch.first;
  render();
}

async function confirm() {
  const touch = state.touch;
  if (touch.busy || !touch.preview) return;
  touch.busy = true;
  render();
  let refused = null;
  try {
    await api(`api/games/${state.game.id}/move`, {method: 'POST',
      body: {instance_id: state.instance, version: state.game.version, action: touch.preview.action}});
    state.error = null;
  } catch (err) {
    refused = err.message;
  }
  touch.busy = false;
  state.touch.key = null;
  await reopen(refused);
}

// the game read again after a move or a refusal (a move for an older version: the game moved on); the
// refusal, in the player's language, stays shown over the new board until their next touch
async function reopen(refused) {
  await open(state.game.id);
  if (refused) {
    state.error = refused;
    render();
  }
}

function listen() {
  for (const name of ['board', 'mine']) {
    const svg = $(`${name}-hits`);
    svg.addEventListener('pointerup', (event) => {
      if (!state.touch.hits || !state.touch.hits[name] || !touchPictures(state.game).includes(name)) return;
      const region = event.target.dataset && event.target.dataset.region;
      tapped(region || regionAt(svg, event, name)).catch(() => {});
    });
  }
  $('confirm').addEventListener('click', () => confirm().catch(() => {}));
  $('change').addEventListener('click', () => change().catch(() => {}));
}

async function picture(game, which) {
  const key = `${game.id}:${game.version}`;
  if (state.shown[which] === key) return;
  try {
    const resp = await api(`api/games/${game.id}/picture?instance_id=${encodeURIComponent(state.instance)}` +
                           `&which=${which}&v=${game.version}`, {raw: true});
    const url = URL.createObjectURL(await resp.blob());
    if (state.pictures[which]) URL.revokeObjectURL(state.pictures[which]);
    state.pictures[which] = url;
    state.shown[which] = key;
  } catch (err) {
    if (which === 'board') throw err;
    state.pictures.mine = null; // a game without a private picture
  }
}

// one opening at a time: a move's answer and its socket frame both ask for the new version
let opening = Promise.resolve();
function open(gameId, atLeast = 0) {
  opening = opening.catch(() => {}).then(() => {
    if (state.game && state.game.id === gameId && state.game.version >= atLeast && atLeast) return null;
    return openNow(gameId);
  });
  return opening;
}

async function openNow(gameId) {
  const game = await api(`api/games/${gameId}?instance_id=${encodeURIComponent(state.instance)}`);
  const pictures = [picture(game, 'board')];
  if (game.mine) pictures.push(picture(game, 'mine'));
  else state.pictures.mine = null;
  pictures.push(loadTouch(game));
  await Promise.all(pictures);
  state.game = game;
  state.error = null;
  render();
  document.body.dataset.version = String(game.version); // what the page shows (tests read it)
  document.body.dataset.game = String(game.id);
}

async function loadGames() {
  const answer = await api(`api/games?instance_id=${encodeURIComponent(state.instance)}`);
  state.userId = answer.user.id;
  if (answer.user.lang !== document.documentElement.lang) await loadTexts(answer.user.lang);
  state.games = answer.games;
  const focus = answer.focus ?? (answer.games.length === 1 ? answer.games[0].id : null);
  const current = state.game && answer.games.some((g) => g.id === state.game.id) ? state.game.id : focus;
  if (current !== null && current !== undefined) await open(current);
  else {
    state.game = null;
    render();
  }
}

// --- live: the socket says which game changed; the page asks for its own view ----------------------
function connect(delay = 500) {
  const url = new URL('api/socket', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = new WebSocket(url);
  ws.addEventListener('open', () => ws.send(JSON.stringify({token: state.token, instance_id: state.instance})));
  ws.addEventListener('message', async (event) => {
    const frame = JSON.parse(event.data);
    try {
      if (frame.hello) {
        delay = 500;
        await loadGames(); // what changed while the socket was away
      } else if (frame.resync) {
        await loadGames();
      } else if (frame.game && state.game && frame.game === state.game.id && frame.version > state.game.version) {
        await open(frame.game, frame.version);
      } else if (frame.game && !state.game) {
        await loadGames();
      } else if (frame.error) {
        state.error = frame.message;
        render();
      }
    } catch (err) {
      state.error = err.message;
      render();
    }
  });
  ws.addEventListener('close', (event) => {
    if (event.code === 4401 || event.code === 4403) return; // refused: the error frame said why
    setTimeout(() => connect(Math.min(delay * 2, 15000)), delay);
  });
}

async function start() {
  listen();
  const cfg = await loadTexts();
  const query = new URLSearchParams(location.search);
  if (!query.get('frame_id') || !query.get('instance_id')) {
    state.error = t('page-open_from_discord');
    render();
    return;
  }
  const sdk = new DiscordSDK(cfg.client_id, {disableConsoleLogOverride: true});
  $('status').textContent = t('page-connecting');
  await sdk.ready();
  const {code} = await sdk.commands.authorize({
    client_id: cfg.client_id, response_type: 'code', state: '', prompt: 'none', scope: ['identify'],
  });
  const {access_token: token} = await api('api/token', {method: 'POST', body: {code}});
  state.token = token;
  await sdk.commands.authenticate({access_token: token});
  state.instance = sdk.instanceId;
  await loadGames();
  connect();
}

start().catch((err) => {
  state.error = err instanceof ApiError ? err.message : t('page-error');
  render();
});
