"""The workbench clicked like a person (issue 23): Selenium driving Debian's Chromium
(`apt-get install chromium chromium-driver`; nothing is downloaded). Accept with a reason,
reject from the keyboard, an edit the firewall refuses and then one it takes, the source
viewer's highlight on a text and on a PDF page's image, a merge reviewed side by side and
then split, a person page and a chart; a screenshot of
each page type lands in $TMPDIR/sleuth-workbench-screens/ (look at them before calling the
work done)."""

from __future__ import annotations

import os
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from web_helpers import audit_reasons, cli_items
from workbench_case import build_case

import family_case
import sleuth.web.views as views

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
    if os.environ.get("SLEUTH_BROWSER_TESTS") == "required":  # CI (.ci/run) installs them
        raise RuntimeError("SLEUTH_BROWSER_TESTS=required but /usr/bin/chromium or "
                           "/usr/bin/chromedriver is missing")
    pytest.skip("browser tests need Debian's chromium and chromium-driver "
                "(/usr/bin/chromium, /usr/bin/chromedriver): apt-get install -y chromium "
                "chromium-driver", allow_module_level=True)

import uvicorn  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from sleuth.cli.common import open_case  # noqa: E402
from sleuth.resolve.explain import Proposal  # noqa: E402
from sleuth.resolve.review import enqueue_proposals  # noqa: E402
from sleuth.store import Store, case_graph  # noqa: E402
from sleuth.web.app import create_app  # noqa: E402

SCREENS = Path(tempfile.gettempdir()) / "sleuth-workbench-screens"


@pytest.fixture(scope="module")
def case(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The workbench case with more to decide: a second obituary, a PDF register, and the
    resolver's proposal that the two Emmas are one person."""
    case = build_case(tmp_path_factory.mktemp("browser"), more=True)
    store = open_case(case)
    try:
        ids = {p.canonical_name: p.id for p in case_graph(store).persons}
        enqueue_proposals(store, [Proposal(
            a=ids["Emma Whitfield"], b=ids["Emma"], probability=0.9,
            recommended_action="review", features={"given": {"level": "exact", "weight": 2.5}},
            merge_rationale="the same given name; both Robert Whitfield's daughter",
            why_not_merge="the obituary gives no surname")])
    finally:
        store.close()
    return case


@contextmanager
def serving(case: Path, token: str | None = None) -> Iterator[str]:
    """`sleuth serve`'s app on a free loopback port, in a thread (`token`: as off
    loopback, every request needs it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    store = open_case(case)
    app = create_app(store, title=case.name, case_dir=case, token=token)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", access_log=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        store.close()


@pytest.fixture(scope="module")
def base(case: Path) -> Iterator[str]:
    with serving(case) as url:
        yield url


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager: never download
    opts = webdriver.ChromeOptions()
    opts.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--window-size=1280,900",
                f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"):
        opts.add_argument(arg)
    driver = webdriver.Chrome(options=opts, service=Service(str(CHROMEDRIVER)))
    driver.implicitly_wait(2)
    SCREENS.mkdir(parents=True, exist_ok=True)
    try:
        yield driver
    finally:
        driver.quit()


def item_with(driver: WebDriver, text: str) -> WebElement:
    """The open queue item whose words include `text`."""
    for el in driver.find_elements(By.CSS_SELECTOR, "li[data-item-id]"):
        if text in el.text:
            return el
    raise AssertionError(f"no queue item mentions {text!r}")


def button(item: WebElement, label: str) -> WebElement:
    return next(b for b in item.find_elements(By.TAG_NAME, "button") if b.text == label)


def wait_for(driver: WebDriver, css: str) -> WebElement:
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, css))
    return driver.find_element(By.CSS_SELECTOR, css)


def test_accept_with_a_reason(browser: WebDriver, base: str, case: Path) -> None:
    browser.get(f"{base}/review")
    browser.save_screenshot(str(SCREENS / "review-queue.png"))
    item = item_with(browser, "1884-06-12")
    rid = int(item.get_attribute("data-item-id") or 0)
    item.find_element(By.CSS_SELECTOR, "textarea[name='reason']").send_keys(
        "the obituary gives her exact birth date")
    button(item, "Accept").click()
    assert f"accepted item {rid}" in wait_for(browser, ".done").text
    assert {i["id"]: i["status"] for i in cli_items(case, "--all")}[rid] == "accepted"
    assert ("review_accepted", "the obituary gives her exact birth date") in audit_reasons(
        case, rid)


def test_reject_from_the_keyboard(browser: WebDriver, base: str, case: Path) -> None:
    browser.get(f"{base}/review")
    target = item_with(browser, "1882-06-03")
    rid = target.get_attribute("data-item-id")
    body = browser.find_element(By.TAG_NAME, "body")
    for _ in range(20):  # j moves down to the item
        if "current" in (browser.find_element(
                By.CSS_SELECTOR, f"li[data-item-id='{rid}']").get_attribute("class") or ""):
            break
        body.send_keys("j")
    body.send_keys("r")  # the reason field takes the focus
    reason = browser.switch_to.active_element
    assert reason.get_attribute("name") == "reason"
    reason.send_keys(Keys.ARROW_UP)  # the last reason given (the accept's) comes back
    assert reason.get_attribute("value") == "the obituary gives her exact birth date"
    reason.clear()
    reason.send_keys("the register gives another year")
    reason.send_keys(Keys.CONTROL, Keys.ENTER)
    assert f"rejected item {rid}" in wait_for(browser, ".done").text
    assert {i["id"]: i["status"] for i in cli_items(case, "--all")}[int(rid or 0)] == "rejected"


def test_an_edit_the_firewall_refuses_then_one_it_takes(browser: WebDriver, base: str,
                                                         case: Path) -> None:
    browser.get(f"{base}/review")
    item = item_with(browser, "Clark County, Ohio.")
    rid = item.get_attribute("data-item-id")
    value = item.find_element(By.CSS_SELECTOR, "input[name='value']")
    value.clear()
    value.send_keys("Cook County, Illinois")
    item.find_element(By.CSS_SELECTOR, "textarea[name='reason']").send_keys("misread place")
    button(item, "Edit").click()
    assert f"Item {rid}:" in wait_for(browser, ".error").text  # not what the words say
    browser.save_screenshot(str(SCREENS / "review-edit-refused.png"))
    item = browser.find_element(By.CSS_SELECTOR, f"li[data-item-id='{rid}']")
    value = item.find_element(By.CSS_SELECTOR, "input[name='value']")
    value.clear()
    value.send_keys("Clark County, Ohio")
    button(item, "Edit").click()  # the reason typed before is still there
    assert f"edited item {rid}" in wait_for(browser, ".done").text
    assert {i["id"]: i["status"] for i in cli_items(case, "--all")}[int(rid or 0)] == "edited"


def test_the_source_viewer_highlights_the_cited_words(browser: WebDriver, base: str) -> None:
    browser.get(f"{base}/review?status=all")  # decided items keep their source
    item = item_with(browser, "12 June 1884")
    item.find_element(By.LINK_TEXT, "Open the source at these words").click()
    mark = wait_for(browser, "mark#cited")
    assert mark.is_displayed() and mark.text.startswith("She was born")
    assert "page 2" in browser.find_element(By.CSS_SELECTOR, "dl.meta").text
    top = browser.execute_script("return arguments[0].getBoundingClientRect().top", mark)
    assert 0 <= top <= browser.execute_script("return window.innerHeight")
    assert "sha256:" in browser.page_source
    browser.save_screenshot(str(SCREENS / "source-viewer.png"))


def test_the_source_viewer_shows_a_pdf_page_with_the_words_boxed(browser: WebDriver,
                                                                   base: str) -> None:
    browser.get(f"{base}/review?status=all")
    item = item_with(browser, "12 June 1784")
    item.find_element(By.LINK_TEXT, "Open the source at these words").click()
    img = wait_for(browser, "figure.page-image img")
    WebDriverWait(browser, 10).until(
        lambda d: d.execute_script("return arguments[0].naturalWidth", img) > 0)
    box = browser.find_element(By.ID, "cited-box")
    assert box.is_displayed() and box.size["width"] > 100
    top = browser.execute_script("return arguments[0].getBoundingClientRect().top", box)
    assert 0 <= top <= browser.execute_script("return window.innerHeight")
    assert "She was born on 12 June 1784" in browser.find_element(By.ID, "cited").text
    browser.save_screenshot(str(SCREENS / "source-viewer-pdf.png"))


def test_a_merge_reviewed_side_by_side_then_split(browser: WebDriver, base: str,
                                                  case: Path) -> None:
    browser.get(f"{base}/review?kind=merge")
    browser.find_element(By.LINK_TEXT, "Compare the two side by side").click()
    wait_for(browser, "table.compare")
    browser.save_screenshot(str(SCREENS / "merge-compare.png"))
    item = browser.find_element(By.CSS_SELECTOR, "[data-item-id]")
    rid = int(item.get_attribute("data-item-id") or 0)
    item.find_element(By.CSS_SELECTOR, "textarea[name='reason']").send_keys(
        "one daughter, named twice")
    button(item, "Accept").click()
    assert f"accepted item {rid}" in wait_for(browser, ".done").text
    browser.get(f"{base}/persons?q=Emma")
    browser.find_element(By.LINK_TEXT, "Emma Whitfield").click()
    merged = wait_for(browser, "section.merge")
    assert "Merged from 2 records" in merged.text
    browser.save_screenshot(str(SCREENS / "person-merged.png"))
    merged.find_element(By.CSS_SELECTOR, "textarea[name='reason']").send_keys(
        "two daughters after all")
    next(b for b in merged.find_elements(By.TAG_NAME, "button") if b.text == "Split").click()
    assert "split into 2 persons" in wait_for(browser, ".done").text
    assert {i["id"]: i["status"] for i in cli_items(case, "--all")}[rid] == "accepted"


def test_a_person_page(browser: WebDriver, base: str) -> None:
    browser.get(f"{base}/log")
    wait_for(browser, "table.log")
    browser.save_screenshot(str(SCREENS / "research-log.png"))
    browser.get(f"{base}/persons")
    browser.save_screenshot(str(SCREENS / "persons.png"))
    browser.find_element(By.LINK_TEXT, "Robert Whitfield").click()
    wait_for(browser, "table.claims")
    assert "1935-07-22" in browser.page_source
    browser.save_screenshot(str(SCREENS / "person.png"))
    browser.find_element(By.LINK_TEXT, "Descendants").click()
    wait_for(browser, "svg a[data-person-id]")
    browser.save_screenshot(str(SCREENS / "chart-descendants.png"))
    browser.find_element(By.CSS_SELECTOR, "h1 a").click()  # back to his page
    wait_for(browser, "table.claims")
    browser.find_element(By.LINK_TEXT, "Emma Whitfield").click()  # his living daughter
    wait_for(browser, "table.claims")
    assert "1990-05-12" not in browser.page_source and "living" in browser.page_source
    browser.save_screenshot(str(SCREENS / "person-living.png"))


def test_a_person_page_with_a_conflict_a_timeline_and_a_hypothesis(
        browser: WebDriver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The privacy tests' family case (two sources disagree on Thomas's birth), served as
    the store would give it."""
    family = family_case.build_family()
    monkeypatch.setattr(views, "case_graph", lambda store, title="": family)
    Store.create_case(tmp_path / "case").close()
    thomas = next(p.id for p in family.persons if p.canonical_name == "Thomas Whitfield")
    with serving(tmp_path / "case") as url:
        browser.get(f"{url}/person/{thomas}")
        conflict = wait_for(browser, "section.conflict")
        assert "recommended 3 March 1902" in conflict.text
        assert "Hypothesis" in browser.find_element(By.CSS_SELECTOR, "section.hypothesis").text
        assert "Gap:" in browser.find_element(By.TAG_NAME, "main").text
        browser.set_window_size(1280, 1900)
        browser.save_screenshot(str(SCREENS / "person-conflict.png"))
        browser.set_window_size(1280, 900)


def test_off_loopback_the_browser_needs_the_token(browser: WebDriver, case: Path) -> None:
    with serving(case, token="s3cret-token") as url:
        browser.get(f"{url}/review")
        assert "needs its token" in browser.find_element(By.TAG_NAME, "body").text
        browser.save_screenshot(str(SCREENS / "token-refused.png"))
        browser.get(f"{url}/review?token=s3cret-token")  # the address `sleuth serve` printed
        wait_for(browser, "li[data-item-id]")
        assert "token=" not in browser.current_url  # kept in a cookie, out of the address
        browser.get(f"{url}/persons")
        wait_for(browser, "table")


def test_a_form_with_another_csrf_token_is_refused(browser: WebDriver, base: str,
                                                   case: Path) -> None:
    browser.get(f"{base}/review")
    item = browser.find_element(By.CSS_SELECTOR, "li[data-item-id]")
    rid = int(item.get_attribute("data-item-id") or 0)
    browser.execute_script(  # a form from elsewhere: its CSRF field is not this session's
        "arguments[0].querySelector('input[name=csrf]').value = '0'.repeat(64)", item)
    item.find_element(By.CSS_SELECTOR, "textarea[name='reason']").send_keys("forged")
    button(item, "Accept").click()
    assert "CSRF check failed" in wait_for(browser, "main").text
    browser.save_screenshot(str(SCREENS / "csrf-refused.png"))
    assert {i["id"]: i["status"] for i in cli_items(case, "--all")}[rid] == "open"


def test_the_report_links_each_footnote_to_the_cited_words(browser: WebDriver,
                                                           base: str) -> None:
    browser.get(f"{base}/report")  # the contents lead to the persons' pages
    wait_for(browser, "a[href*='#person-']").click()
    link = wait_for(browser, "a.viewer")
    browser.save_screenshot(str(SCREENS / "report.png"))
    link.click()
    mark = wait_for(browser, "mark#cited")
    top = browser.execute_script("return arguments[0].getBoundingClientRect().top", mark)
    assert mark.text and 0 <= top <= browser.execute_script("return window.innerHeight")
