"""bench_bytes's measures: what the fake Discord logs of each request's bytes (plain HTTP, no bot), and
how the bench attributes the request log and the gateway bytes to each interaction."""

from __future__ import annotations

import json
from dataclasses import asdict
from types import SimpleNamespace

import aiohttp
import pytest

from bench.bench_bytes import Wire, WireTimings, category, compare_table, summary, tally, window_of
from fakediscord import FakeDiscord
from fakediscord.server import LoggedRequest


@pytest.mark.asyncio
async def test_the_fake_logs_each_requests_body_and_file_bytes_and_the_gateway_bytes_it_sends():
    fake = FakeDiscord(guild_name="Bytes", channels=["jeux"])
    await fake.start()
    try:
        ch = fake.channel("jeux").id
        headers = {"Authorization": f"Bot {fake.token}"}
        async with aiohttp.ClientSession() as http:
            body = json.dumps({"content": "é" * 10}, ensure_ascii=False).encode()
            async with http.post(f"{fake.api_base}/channels/{ch}/messages", data=body,
                                 headers={**headers, "Content-Type": "application/json"}) as r:
                assert r.status == 200
            form = aiohttp.FormData()
            form.add_field("payload_json", json.dumps({"content": "deux", "attachments": [{"id": 0}, {"id": 1}]}))
            form.add_field("files[0]", b"\x89PNG\r\n\x1a\n" + bytes(992), filename="a.png")
            form.add_field("files[1]", b"\x89PNG\r\n\x1a\n" + bytes(226), filename="b.png")
            async with http.post(f"{fake.api_base}/channels/{ch}/messages", data=form, headers=headers) as r:
                assert r.status == 200
            async with http.get(f"{fake.api_base}/channels/{ch}/messages", headers=headers) as r:
                assert r.status == 200
            async with http.ws_connect(f"{fake.base_url}/gateway?v=10&encoding=json") as ws:
                hello = await ws.receive_str()
        plain, multipart, read = fake.request_log[-3:]
        method, path, status = plain  # still the (method, path, status) it was
        assert (method, status) == ("POST", 200) and path.endswith("/messages")
        assert (plain.body_bytes, plain.file_bytes) == (len(body), 0)
        assert multipart.file_bytes == 1000 + 234
        # the whole body: the files, the JSON part and the multipart framing
        assert multipart.body_bytes > 1234 + len('{"content": "deux"')
        assert (read.body_bytes, read.file_bytes) == (0, 0)
        assert json.loads(hello)["op"] == 10
        assert fake.gateway_bytes_sent == len(hello.encode())
    finally:
        await fake.stop()


def entry(method: str, path: str, body: int = 0, files: int = 0) -> LoggedRequest:
    return LoggedRequest(method, path, 200, body, files)


def result(fake, token: str, kind: str = "component"):
    return SimpleNamespace(fake=fake, interaction={"token": token}, kind=kind, latency=0.01)


def test_tally_counts_its_own_interaction_and_the_channel_requests_not_another_interactions():
    window = [entry("POST", "/api/v10/interactions/1/tokA/callback", 400),
              entry("POST", "/api/v10/webhooks/9/tokA", 5000, 4200),
              entry("POST", "/api/v10/interactions/2/tokX/callback", 300),  # an autocomplete meanwhile
              entry("PATCH", "/api/v10/channels/5/messages/7", 120),
              entry("GET", "/api/v10/channels/5/messages/7"),
              entry("DELETE", "/api/v10/channels/5/messages/8")]
    assert tally(window, "tokA") == Wire(interaction=2, channel=2, other=1, sent=5520, pictures=4200)


def test_the_window_runs_from_the_first_request_of_the_interaction_to_the_next_ones():
    log = [entry("PATCH", "/api/v10/channels/5/messages/1", 50),
           entry("POST", "/api/v10/interactions/1/tokA/callback", 400),
           entry("PATCH", "/api/v10/channels/5/messages/2", 60),
           entry("POST", "/api/v10/interactions/2/tokB/callback", 70),
           entry("POST", "/api/v10/channels/5/messages", 80)]
    assert [e.body_bytes for e in window_of(log, "tokA", "tokB")] == [400, 60]
    assert [e.body_bytes for e in window_of(log, "tokB", None)] == [70, 80]
    assert window_of(log, "tokZ", None) == []  # an interaction the bot never answered


def test_wire_timings_attribute_requests_and_gateway_bytes_to_each_recorded_interaction():
    fake = SimpleNamespace(request_log=[], gateway_bytes_sent=100)
    t = WireTimings()
    t.begin(fake, "Ludix")
    # move A: its INTERACTION_CREATE and message events reach the bot, it answers with a picture
    fake.gateway_bytes_sent += 300
    fake.request_log += [entry("POST", "/api/v10/interactions/1/tokA/callback", 400),
                         entry("POST", "/api/v10/webhooks/9/tokA", 5000, 4200)]
    t.record("button Lancer les dés", result(fake, "tokA"))
    # an autocomplete (not counted), then A's old buttons come off late, in the channel
    fake.gateway_bytes_sent += 50
    fake.request_log += [entry("POST", "/api/v10/interactions/2/tokX/callback", 300),
                         entry("PATCH", "/api/v10/channels/5/messages/7", 120)]
    t.record("autocomplete", result(fake, "tokX", kind="autocomplete"))
    # a look B
    fake.gateway_bytes_sent += 200
    fake.request_log += [entry("POST", "/api/v10/interactions/3/tokB/callback", 700, 600)]
    t.record("/ludix status", result(fake, "tokB"))
    t.flush()
    assert t.wire["Ludix"]["button Lancer les dés"] == [Wire(interaction=2, channel=1, sent=5520, pictures=4200,
                                                            gateway=300)]
    assert t.wire["Ludix"]["/ludix status"] == [Wire(interaction=1, sent=700, pictures=600, gateway=200)]
    assert "autocomplete" not in t.wire["Ludix"]
    assert len(t.samples["autocomplete"]) == 1  # its latency is still timed
    t.flush()  # closing twice counts nothing twice
    assert len(t.wire["Ludix"]["/ludix status"]) == 1


def test_categories_summaries_and_the_before_after_table():
    assert [category(n) for n in ("/ludix start", "button Rejoindre", "/ludime join", "button Lancer (start)",
                                  "/ranta cancel")] == ["lobby"] * 5
    assert [category(n) for n in ("button Ma main", "/limit status", "button Voir la carte (lutin)",
                                  "/ludime poser (refused: not your turn)")] == ["look"] * 4
    assert [category(n) for n in ("/ludime poser", "button Confirmer", "select pos (preview + board)")] == ["move"] * 3
    rows = {"button Stop": [Wire(interaction=2, sent=1024, pictures=512, gateway=2048)],
            "button Lancer les dés": [Wire(interaction=2, channel=1, sent=3072, pictures=2048, gateway=0)],
            "/ludix start": [Wire(interaction=1, sent=999_999)]}
    s = summary(rows)
    assert (s["n"], s["interaction"], s["channel"], s["sent"], s["pictures"], s["gateway"]) == \
        (2, 2.0, 0.5, 2048, 1280, 1024)
    assert summary(rows, "look") == {"n": 0}
    assert summary(rows, "all")["n"] == 3 and summary(rows, "all")["sent"] == (1024 + 3072 + 999_999) / 3
    before = {"Ludix": {k: [asdict(w) for w in v] for k, v in rows.items()}}
    after = {"Ludix": {"button Stop": [asdict(Wire(interaction=1, channel=1, sent=4096, pictures=3072, gateway=1024))]}}
    line = next(x for x in compare_table(before, after).splitlines() if x.startswith("| Ludix"))
    assert line == "| Ludix | 2 / 1 | 2.00 + 0.50 → 1.00 + 1.00 | 2.0 → 4.0 | 1.2 → 3.0 | 1.0 → 1.0 |"
    assert "| Lutinades | 0 / 0 |" in compare_table(before, after)
