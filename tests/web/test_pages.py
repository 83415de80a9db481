"""The game pages through the framework's test client: what they show, to whom, and how
they refuse."""

from __future__ import annotations

import re
from html import unescape

from starlette.testclient import TestClient

from bot.web.addresses import game_token
from tests.web.conftest import PUBLIC_URL, page_of
from tests.web.games import HOSTILE, SECRET, Games


def step_lines(html: str) -> list[str]:
    """The lines of the step shown, as the reader reads them."""
    section = html.split('<section id="lines"', 1)[1].split("</section>", 1)[0]
    return [unescape(line) for line in re.findall(r'<li dir="auto">(.*?)</li>', section, re.S)]


def last_step(html: str) -> int:
    found = re.search(r'data-last="(\d+)"', html)
    assert found is not None
    return int(found.group(1))


def test_a_finished_game_has_a_page_with_its_board_lines_and_links(
    client: TestClient, games: Games
) -> None:
    page = page_of(games.finished)
    answer = client.get(page)
    assert answer.status_code == 200
    html = answer.text
    assert f'src="{page}/board/0.png"' in html
    assert f'href="{page}?step=1"' in html
    assert f'href="{page}/cut?step=0"' in html
    assert 'aria-checked="false"' in html
    assert f'content="{PUBLIC_URL}{page}/final.png"' in html
    last = last_step(html)
    assert last > 20
    end = client.get(f"{page}?step={last}").text
    assert 'id="reveal"' in end
    assert 'id="reveal"' not in html
    picture = client.get(f"{page}/board/{last}.png")
    assert picture.status_code == 200
    assert picture.headers["content-type"] == "image/png"
    assert picture.content.startswith(b"\x89PNG")
    assert client.get(f"{page}/final.png").content == picture.content


def test_hostile_names_are_text_everywhere(client: TestClient, games: Games) -> None:
    for game in (games.finished, games.french):
        page = page_of(game)
        first = client.get(page).text
        last = last_step(first)
        for html in (first, client.get(f"{page}?step={last}").text, client.get(f"{page}/cut").text):
            assert html.count("<title>") == 1
            assert html.count("</title>") == 1
            assert "<script>" not in html
            assert "<b>" not in html
            assert "<@" not in html
            scripts = re.findall(r"<script[^>]*>", html)
            assert scripts == ['<script src="/static/page.js" defer>']
            assert not re.search(r"\son[a-z]+=", html)
            assert " style=" not in html
    french = client.get(f"{page_of(games.french)}?step=1").text
    assert '<html lang="fr">' in french
    assert "Étape 1 sur" in french
    end = client.get(f"{page_of(games.finished)}?step=9999").status_code
    assert end == 404
    shown = unescape(client.get(f"{page_of(games.finished)}/cut").text)
    for name in HOSTILE[:4] + HOSTILE[5:]:
        assert name in shown
    assert HOSTILE[4] in unescape(client.get(page_of(games.french)).text)


def test_every_address_without_a_page_gets_the_same_404(client: TestClient, games: Games) -> None:
    valid = game_token(SECRET.encode(), games.finished)
    forged = valid[:-1] + ("A" if valid[-1] != "A" else "B")
    addresses = [
        page_of(games.running),
        page_of(games.practice),
        page_of(games.pages_off),
        page_of(999_999),
        f"/g/{forged}",
        f"/g/{game_token(b'another secret of forty characters long!', games.finished)}",
        "/g/short",
        "/g/" + "." * 32,
        "/g/../../etc/passwd",
        "/static/../app.py",
        "/static/%2e%2e%2fapp.py",
        "/static/page.html",
        f"/g/{valid}/board/x.png",
        f"/g/{valid}/board/99999.png",
        f"/g/{valid}?step=-1",
        f"/g/{valid}?step=1e3",
        f"{page_of(games.running)}/final.png",
        f"{page_of(games.pages_off)}/cut",
        "/",
    ]
    answers = [client.get(address) for address in addresses]
    assert {a.status_code for a in answers} == {404}
    assert len({a.content for a in answers}) == 1
    assert len({tuple(sorted(a.headers.items())) for a in answers}) == 1
    assert "ETag" not in answers[0].headers


def test_no_such_game_and_not_public_run_the_same_single_query(games: Games) -> None:
    """The time of a 404 cannot tell them apart: both cost exactly this one statement."""
    from sqlalchemy import event

    from bot.storage.database import Database
    from bot.web.app import create_app
    from tests.web.conftest import web_settings

    database = Database(games.url, read_only=True)
    statements: list[str] = []
    event.listen(
        database.engine.sync_engine,
        "before_cursor_execute",
        lambda conn, cursor, sql, params, context, many: statements.append(sql),
    )
    with TestClient(create_app(web_settings(games.url), database)) as client:
        seen = []
        for address in (
            page_of(999_999),
            page_of(games.pages_off),
            page_of(games.running),
            page_of(games.practice),
            "/g/" + "A" * 32,
        ):
            statements.clear()
            assert client.get(address).status_code == 404
            seen.append(list(statements))
    assert [sql for sql in seen[0] if sql.startswith("SELECT")] == [seen[0][-1]]
    assert all(queries == seen[0] for queries in seen)


def test_headers_forbid_inline_script_and_indexing_and_allow_caching(
    client: TestClient, games: Games
) -> None:
    answer = client.get(page_of(games.finished))
    policy = answer.headers["content-security-policy"]
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert "default-src 'none'" in policy
    assert answer.headers["x-robots-tag"] == "noindex, nofollow"
    assert '<meta name="robots" content="noindex, nofollow">' in answer.text
    assert answer.headers["cache-control"].startswith("public")
    etag = answer.headers["etag"]
    again = client.get(page_of(games.finished), headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert client.get("/robots.txt").text == "User-agent: *\nDisallow: /\n"
    script = client.get("/static/page.js")
    assert script.headers["content-type"].startswith("text/javascript")


def test_a_client_asking_too_fast_is_told_to_wait(games: Games) -> None:
    from bot.storage.database import Database
    from bot.web.app import create_app
    from tests.web.conftest import web_settings

    settings = web_settings(games.url, web_requests_per_minute=3)
    with TestClient(create_app(settings, Database(games.url, read_only=True))) as client:
        codes = [client.get(page_of(games.finished)).status_code for _ in range(4)]
        refused = client.get("/robots.txt")
    assert codes == [200, 200, 200, 429]
    assert refused.status_code == 429
    assert int(refused.headers["retry-after"]) >= 1
    assert "content-security-policy" in refused.headers


def test_steps_follow_the_public_log_and_the_cut_holds_the_secrets(
    client: TestClient, games: Games
) -> None:
    page = page_of(games.finished)
    last = last_step(client.get(page).text)
    public = client.get(f"{page}?step=3").text
    cut = client.get(f"{page}/cut?step=3").text
    assert 'id="hidden"' in cut
    assert 'id="hidden"' not in public
    assert 'aria-checked="true"' in cut
    assert f'href="{page}?step=3"' in cut
    assert step_lines(public) == step_lines(cut)
    assert step_lines(public)
    assert last_step(cut) == last
