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
};

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

async function open(gameId) {
  const game = await api(`api/games/${gameId}?instance_id=${encodeURIComponent(state.instance)}`);
  const pictures = [picture(game, 'board')];
  if (game.mine) pictures.push(picture(game, 'mine'));
  else state.pictures.mine = null;
  await Promise.all(pictures);
  state.game = game;
  state.error = null;
  render();
  document.body.dataset.version = String(game.version); // what the page shows (tests read it)
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
        await open(frame.game);
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
