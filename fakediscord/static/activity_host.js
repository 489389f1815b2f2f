// The Discord client's end of the Embedded App SDK's protocol (postMessage), for the fake Discord's
// client page. Opcodes and frames as the SDK's own source has them (src/Discord.ts: HANDSHAKE 0,
// FRAME 1, CLOSE 2; a command is answered by a FRAME with its nonce and evt null, a refusal by evt
// "ERROR" with {code, message}; events arrive as cmd "DISPATCH").
(function () {
  'use strict';
  const config = JSON.parse(document.getElementById('client-config').textContent);
  const frame = document.getElementById('activity');
  const log = (window.activityLog = []); // what passed, for tests: [direction, opcode, frame]

  function send(opcode, payload) {
    log.push(['out', opcode, payload]);
    frame.contentWindow.postMessage([opcode, payload], window.location.origin);
  }

  async function server(cmd, args) {
    const resp = await fetch('/_fake/client/rpc', {
      method: 'POST', headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({user: config.user.id, cmd: cmd, args: args}),
    });
    return resp.json();
  }

  window.addEventListener('message', async function (event) {
    if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
    const [opcode, payload] = event.data;
    log.push(['in', opcode, payload]);
    if (opcode === 0) { // HANDSHAKE: the right application and frame, then READY
      if (!payload || payload.v !== 1 || payload.encoding !== 'json' || payload.client_id !== config.app_id ||
          payload.frame_id !== config.frame_id) {
        send(2, {code: 4000, message: 'Invalid handshake'});
        return;
      }
      send(1, {cmd: 'DISPATCH', evt: 'READY', nonce: null, data: {
        v: 1, config: {cdn_host: 'cdn.discordapp.com', api_endpoint: '//discord.com/api', environment: 'production'},
        user: config.user}});
      return;
    }
    if (opcode !== 1 || !payload || typeof payload.nonce !== 'string') return;
    const {cmd, args, nonce} = payload;
    let answer;
    if (cmd === 'SUBSCRIBE' || cmd === 'UNSUBSCRIBE') answer = {data: {evt: payload.evt}};
    else if (cmd === 'CAPTURE_LOG') answer = {data: null};
    else answer = await server(cmd, args || {});
    if (answer.error) send(1, {cmd: cmd, nonce: nonce, evt: 'ERROR', data: answer.error});
    else send(1, {cmd: cmd, nonce: nonce, evt: null, data: answer.data});
  });
})();
