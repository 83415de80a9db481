"""The game page in a real browser: Debian's headless Chromium driven by Selenium.

At a phone's and a desktop's width: the page opens on its first step, the arrow
keys, the End key and the slider move through the game, and what each step shows
(its number, its lines) is what the stored game says; the director's cut toggles
on and off; the browser reports no error (a blocked inline script would be one);
axe-core (vendored in `axe/`) finds no serious accessibility violation. Set
`LOCKDOWN_SCREENSHOTS` to a folder to keep a screenshot of each width there (the
ones in docs/ are made so).
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.storage.database import Database
from bot.storage.web_pages import WebPages
from bot.web.story import Story, tell
from tests.web.conftest import page_of, web_settings
from tests.web.games import Games
from tests.web.live import serving

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
AXE = Path(__file__).parent / "axe" / "axe.min.js"
WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}

if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
    pytest.skip(
        "no headless browser: install Debian's chromium and chromium-driver "
        "(apt-get install chromium chromium-driver)",
        allow_module_level=True,
    )
webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver import Chrome  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


@pytest.fixture(scope="module")
def base_url(games: Games) -> Iterator[str]:
    with serving(web_settings(games.url)) as url:
        yield url


@pytest.fixture(scope="module")
def story(games: Games) -> Story:
    async def read() -> Story:
        async with Database(games.url, read_only=True) as database:
            return tell(await WebPages(database).game(games.finished))

    return asyncio.run(read())


@pytest.fixture(params=sorted(WIDTHS), scope="module")
def width(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def browser(width: str) -> Iterator[Chrome]:
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(argument)
    options.add_argument("--window-size={},{}".format(*WIDTHS[width]))
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = webdriver.ChromeService(executable_path=str(CHROMEDRIVER))
    driver = webdriver.Chrome(options=options, service=service)
    try:
        yield driver
    finally:
        driver.quit()


def shown_step(driver: Chrome) -> int:
    """Read in one script: the page replaces its <main> as it steps."""
    return int(driver.execute_script("return document.getElementById('game').dataset.step"))


def wait_for_step(driver: Chrome, number: int) -> None:
    WebDriverWait(driver, 10).until(lambda d: shown_step(d) == number)


def shown_lines(driver: Chrome) -> list[str]:
    lines = driver.execute_script(
        "return [...document.querySelectorAll('#lines li')].map((li) => li.textContent)"
    )
    return [" ".join(line.split()) for line in lines]


def check_step(driver: Chrome, story: Story, number: int) -> None:
    """What the browser shows at `number` is the stored game's step."""
    assert shown_step(driver) == number
    assert [" ".join(line.split()) for line in story.steps[number].lines] == shown_lines(driver)
    source = driver.execute_script("return document.getElementById('board').src")
    assert source.endswith(f"/board/{number}.png")
    # The picture is drawn on its first request: wait for it to arrive and decode.
    WebDriverWait(driver, 20).until(
        lambda d: d.execute_script(
            "const image = document.getElementById('board');"
            "return image.complete && image.naturalWidth > 0;"
        )
    )
    assert driver.find_element(By.ID, "step-number").text.startswith(f"Step {number} of")


def test_step_through_a_game_with_keys_slider_and_the_directors_cut(
    browser: Chrome, base_url: str, games: Games, story: Story
) -> None:
    page = base_url + page_of(games.finished)
    browser.get(page + "#step-7")
    wait_for_step(browser, 7)
    check_step(browser, story, 7)
    browser.get(page)
    check_step(browser, story, 0)
    body = browser.find_element(By.TAG_NAME, "body")
    for number in range(1, 6):
        body.send_keys(Keys.ARROW_RIGHT)
        wait_for_step(browser, number)
        check_step(browser, story, number)
    assert browser.current_url.endswith("?step=5")
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_LEFT)
    wait_for_step(browser, 4)
    check_step(browser, story, 4)
    body.send_keys(Keys.END)
    wait_for_step(browser, story.last)
    check_step(browser, story, story.last)
    assert browser.find_element(By.ID, "reveal").is_displayed()

    slider = browser.find_element(By.ID, "slider")
    slider.send_keys(Keys.HOME)
    wait_for_step(browser, 0)
    slider = browser.find_element(By.ID, "slider")
    for number in (1, 2):
        slider.send_keys(Keys.ARROW_RIGHT)
        wait_for_step(browser, number)
        check_step(browser, story, number)
        slider = browser.find_element(By.ID, "slider")
    assert not browser.find_elements(By.ID, "hidden")

    browser.find_element(By.ID, "cut").click()
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.ID, "hidden"))
    assert "/cut?step=2" in browser.current_url
    assert browser.find_element(By.ID, "cut").get_attribute("aria-checked") == "true"
    hidden = browser.find_element(By.ID, "hidden").text
    for secret in story.steps[2].secrets:
        assert secret.name in hidden
        for card in secret.hand:
            assert card in hidden
    check_step(browser, story, 2)
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    wait_for_step(browser, 3)
    assert browser.find_elements(By.ID, "hidden")
    browser.find_element(By.ID, "cut").click()
    WebDriverWait(browser, 10).until(lambda d: not d.find_elements(By.ID, "hidden"))
    assert browser.current_url.endswith(page_of(games.finished) + "?step=3")
    check_step(browser, story, 3)

    log: list[dict[str, Any]] = browser.get_log("browser")  # type: ignore[no-untyped-call]
    errors = [entry for entry in log if entry["level"] == "SEVERE"]
    assert errors == []


def test_no_serious_accessibility_violation_and_a_screenshot(
    browser: Chrome, width: str, base_url: str, games: Games, story: Story, tmp_path: Path
) -> None:
    for address in (page_of(games.finished), f"{page_of(games.finished)}/cut?step={story.last}"):
        browser.get(base_url + address)
        browser.execute_script(AXE.read_text("utf-8"))
        result = browser.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document).then(done, (error) => done({error: String(error)}));"
        )
        assert "error" not in result, result
        serious = [
            (v["id"], v["help"], [n["target"] for n in v["nodes"]])
            for v in result["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        assert serious == []
    browser.get(f"{base_url}{page_of(games.finished)}?step={story.last // 2}")
    shot = tmp_path / "page.png"
    assert browser.save_screenshot(str(shot))
    assert shot.stat().st_size > 10_000
    folder = os.environ.get("LOCKDOWN_SCREENSHOTS")
    if folder:
        browser.get(f"{base_url}{page_of(games.finished)}?step={story.last}")
        height = browser.execute_script("return document.documentElement.scrollHeight")
        browser.set_window_size(WIDTHS[width][0], min(int(height) + 120, 2400))
        browser.save_screenshot(str(tmp_path / "full.png"))
        shutil.copy(tmp_path / "full.png", Path(folder) / f"game-page-{width}.png")
