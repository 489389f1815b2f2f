"""The fake Discord's Activities: LAUNCH_ACTIVITY (refused unless Activities are enabled), the OAuth2
code exchange, ``/users/@me`` with a bearer token and the activity-instance endpoint, each refusing
what Discord refuses (fakediscord/activities.py quotes the documentation)."""

from __future__ import annotations

import base64
import json

import aiohttp
import pytest
import pytest_asyncio

from fakediscord import FakeDiscord
from fakediscord import models as m
from tests.test_fakediscord_strict import Client, interaction

pytestmark = pytest.mark.asyncio

FORM = "application/x-www-form-urlencoded"


@pytest_asyncio.fixture
async def env():
    fake = FakeDiscord(guild_name="Ludi", channels=["jeux", "autre"])
    alice = fake.add_user("Alice")
    bruno = fake.add_user("Bruno")
    await fake.start()
    async with aiohttp.ClientSession() as http:
        yield fake, Client(fake, http), http, alice, bruno
    await fake.stop()


async def exchange(fake: FakeDiscord, http: aiohttp.ClientSession, data: dict[str, str], *,
                   headers: dict[str, str] | None = None) -> tuple[int, dict]:
    async with http.post(fake.api_base + "/oauth2/token", data=data, headers=headers or {}) as r:
        return r.status, json.loads(await r.text())


async def me(fake: FakeDiscord, http: aiohttp.ClientSession, authorization: str) -> tuple[int, dict]:
    async with http.get(fake.api_base + "/users/@me", headers={"Authorization": authorization}) as r:
        return r.status, json.loads(await r.text())


def creds(fake: FakeDiscord, secret: str) -> dict[str, str]:
    return {"client_id": str(fake.app_id), "client_secret": secret}


async def test_a_code_is_exchanged_once_for_a_token_naming_its_user(env):
    fake, _client, http, alice, bruno = env
    secret = fake.enable_activities()
    code = fake.authorize_activity(alice)
    status, body = await exchange(fake, http, {"grant_type": "authorization_code", "code": code, **creds(fake, secret)})
    assert status == 200, body
    assert body["token_type"] == "Bearer" and body["expires_in"] == 604800 and body["scope"] == "identify"
    status, user = await me(fake, http, f"Bearer {body['access_token']}")
    assert status == 200 and user["id"] == str(alice.id) and user["global_name"] == alice.name
    # the same code again: invalid_grant, and the first token still names Alice only
    status, again = await exchange(fake, http, {"grant_type": "authorization_code", "code": code,
                                                **creds(fake, secret)})
    assert status == 400 and again["error"] == "invalid_grant"
    # HTTP Basic client credentials work too
    code = fake.authorize_activity(bruno)
    basic = base64.b64encode(f"{fake.app_id}:{secret}".encode()).decode()
    status, body = await exchange(fake, http, {"grant_type": "authorization_code", "code": code},
                                  headers={"Authorization": f"Basic {basic}"})
    assert status == 200
    assert (await me(fake, http, f"Bearer {body['access_token']}"))[1]["id"] == str(bruno.id)
    # a refresh token gives a new access token for the same user
    status, refreshed = await exchange(fake, http, {"grant_type": "refresh_token",
                                                    "refresh_token": body["refresh_token"], **creds(fake, secret)})
    assert status == 200
    assert (await me(fake, http, f"Bearer {refreshed['access_token']}"))[1]["id"] == str(bruno.id)


async def test_the_exchange_refuses_wrong_clients_codes_and_grants(env):
    fake, _client, http, alice, _bruno = env
    with pytest.raises(PermissionError):
        fake.authorize_activity(alice)  # Activities off: the SDK's authorize fails
    secret = fake.enable_activities()
    code = fake.authorize_activity(alice)
    cases = [
        ({"grant_type": "authorization_code", "code": code, **creds(fake, "not-the-secret")}, 401, "invalid_client"),
        ({"grant_type": "authorization_code", "code": code, "client_id": "1", "client_secret": secret},
         401, "invalid_client"),
        ({"grant_type": "authorization_code", "code": "forged", **creds(fake, secret)}, 400, "invalid_grant"),
        ({"grant_type": "password", "code": code, **creds(fake, secret)}, 400, "unsupported_grant_type"),
    ]
    for data, status, error in cases:
        got_status, body = await exchange(fake, http, data)
        assert (got_status, body["error"]) == (status, error), data
    # none of those used the code up: it still works once
    status, _ = await exchange(fake, http, {"grant_type": "authorization_code", "code": code, **creds(fake, secret)})
    assert status == 200
    # JSON instead of a form: refused as Discord's token endpoint does
    async with http.post(fake.api_base + "/oauth2/token",
                         json={"grant_type": "authorization_code", "code": code, **creds(fake, secret)}) as r:
        assert r.status == 400 and (await r.json())["error"] == "invalid_request"


async def test_bearer_tokens_are_checked_for_validity_expiry_and_scope(env):
    fake, client, http, alice, _bruno = env
    secret = fake.enable_activities()
    assert (await me(fake, http, "Bearer forged"))[0] == 401
    assert (await me(fake, http, ""))[0] == 401
    # the bot's own token still reads the bot user
    status, bot = await me(fake, http, f"Bot {fake.token}")
    assert status == 200 and bot["bot"] is True
    # a token without the identify scope can't read the user
    code = fake.authorize_activity(alice, scopes=("guilds",))
    _, body = await exchange(fake, http, {"grant_type": "authorization_code", "code": code, **creds(fake, secret)})
    assert (await me(fake, http, f"Bearer {body['access_token']}"))[0] == 401
    # an expired token is refused
    code = fake.authorize_activity(alice)
    _, body = await exchange(fake, http, {"grant_type": "authorization_code", "code": code, **creds(fake, secret)})
    assert (await me(fake, http, f"Bearer {body['access_token']}"))[0] == 200
    fake.activities.expire_tokens()
    assert (await me(fake, http, f"Bearer {body['access_token']}"))[0] == 401
    # a bearer token is not a bot token: the bot's routes stay closed to it
    status, _, _ = await client.req("GET", f"/channels/{fake.channel('jeux').id}", auth=False)
    assert status == 401


async def test_activity_instances_say_where_they_run_and_who_is_in(env):
    fake, client, _http, alice, bruno = env
    fake.enable_activities()
    jeux, autre = fake.channel("jeux"), fake.channel("autre")
    iid = fake.launch_activity(alice, jeux)
    assert fake.launch_activity(bruno, jeux) == iid  # one instance per location: Bruno joins it
    other = fake.launch_activity(bruno, autre)
    assert other != iid
    status, inst, _ = await client.req("GET", f"/applications/{fake.app_id}/activity-instances/{iid}")
    assert status == 200
    assert inst["application_id"] == str(fake.app_id) and inst["instance_id"] == iid
    assert inst["location"] == {"id": f"gc-{fake.guild_id}-{jeux.id}", "kind": "gc",
                                "channel_id": str(jeux.id), "guild_id": str(fake.guild_id)}
    assert inst["users"] == [str(alice.id), str(bruno.id)]
    # the route wants the bot's token, and the application's own id
    assert (await client.req("GET", f"/applications/{fake.app_id}/activity-instances/{iid}", auth=False))[0] == 401
    assert (await client.req("GET", f"/applications/1/activity-instances/{iid}"))[0] == 404
    # unknown, or ended with its last user: 404 {"message": "404: Not Found", "code": 0}
    fake.leave_activity(alice, iid)
    fake.leave_activity(bruno, iid)
    status, body, _ = await client.req("GET", f"/applications/{fake.app_id}/activity-instances/{iid}")
    assert (status, body) == (404, {"message": "404: Not Found", "code": 0})
    # a user can't open the Activity in a server they are not in
    club = fake.add_guild("Club", channels=["jeux"])
    with pytest.raises(PermissionError):
        fake.launch_activity(alice, fake.channel("jeux", guild=club))


async def test_launch_activity_is_refused_unless_activities_are_enabled(env):
    fake, client, _http, alice, _bruno = env
    rec = interaction(fake, alice, "jeux")
    path = f"/interactions/{rec.id}/{rec.token}/callback?with_response=true"
    status, body, _ = await client.req("POST", path, {"type": m.CB_LAUNCH_ACTIVITY}, auth=False)
    assert status == 400 and body["code"] == 50035
    assert fake.validation_errors, "a refused LAUNCH_ACTIVITY is a request Discord would refuse"
    fake.validation_errors.clear()
    fake.enable_activities()
    rec = interaction(fake, alice, "jeux")
    path = f"/interactions/{rec.id}/{rec.token}/callback?with_response=true"
    status, body, _ = await client.req("POST", path, {"type": m.CB_LAUNCH_ACTIVITY}, auth=False)
    assert status == 200, body
    iid = body["resource"]["activity_instance"]["id"]
    assert body["interaction"]["activity_instance_id"] == iid and rec.activity_instance_id == iid
    assert fake.activities.instances[iid].users == [alice.id]
    assert fake.activities.instances[iid].channel_id == fake.channel("jeux").id
    # not for an autocomplete
    rec = interaction(fake, alice, "jeux", itype=m.IT_AUTOCOMPLETE)
    status, _, _ = await client.req("POST", f"/interactions/{rec.id}/{rec.token}/callback",
                                    {"type": m.CB_LAUNCH_ACTIVITY}, auth=False)
    assert status == 400


async def test_the_application_says_it_is_embedded_once_activities_are_on(env):
    fake, client, _http, _alice, _bruno = env
    flags = (await client.req("GET", "/applications/@me"))[1]["flags"]
    assert not flags & (1 << 17)
    fake.enable_activities()
    assert (await client.req("GET", "/applications/@me"))[1]["flags"] & (1 << 17)
