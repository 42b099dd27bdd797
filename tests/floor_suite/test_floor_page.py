"""The surveillance page in a real browser (Debian's chromium driven by playwright)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from floor.auth import set_password
from floor.embedded import free_port
from floor.shipper import Shipper
from floor.simtable import deal
from floor.web import Sessions

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
PASSWORD = "tapis-vert-42"


def test_sessions_expire() -> None:
    now = [0.0]
    sessions = Sessions(60, clock=lambda: now[0])
    token = sessions.open()
    assert sessions.valid(token)
    now[0] = 59
    assert sessions.valid(token)
    now[0] = 61
    assert not sessions.valid(token)
    assert not sessions.valid("forged")


@pytest.fixture
def page_server(floor_dsn: str, tmp_path: Path) -> Iterator[str]:
    set_password(floor_dsn, PASSWORD)
    port = free_port()
    log = (tmp_path / "serve.log").open("wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "croupier", "floor", "serve", "--floor", floor_dsn, "--listen",
         f"127.0.0.1:{port}"], stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while True:
        try:
            urllib.request.urlopen(url + "/login", timeout=1).close()
            break
        except (urllib.error.URLError, ConnectionError):
            assert server.poll() is None, (tmp_path / "serve.log").read_text()
            assert time.monotonic() < deadline, "the page did not come up in 20 s"
            time.sleep(0.1)
    yield url
    server.terminate()
    server.wait(10)
    log.close()


def test_the_api_needs_a_login(page_server: str) -> None:
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(page_server + "/api/tables", timeout=5)
    assert refused.value.code == 401
    wrong = urllib.request.Request(page_server + "/api/login", data=b'{"password": "nope"}',
                                   headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as denied:
        urllib.request.urlopen(wrong, timeout=5)
    assert denied.value.code == 401


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine: "
                    "`apt-get install chromium` to run the page in a real browser")
@pytest.mark.timeout(120)
def test_the_page_shows_a_table_live(page_server: str, floor_dsn: str, tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    journal = tmp_path / "t.db"
    deal(journal, seed=21, cards=120, pace=0, durable=False)
    shipper = Shipper(journal, "T7", floor_dsn)
    shipper.ship_available()
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM,
                                         args=["--no-sandbox"] if os.geteuid() == 0 else [])
        page = browser.new_page()
        page.goto(page_server + "/")
        expect(page).to_have_url(re.compile(r"/login$"))
        page.fill("#password", "wrong password")
        page.click("button[type=submit]")
        expect(page.locator("#error")).to_have_text("wrong password")
        page.fill("#password", PASSWORD)
        page.click("button[type=submit]")
        card = page.locator('article[data-table="T7"]')
        expect(card).to_contain_text("Table T7")
        expect(card).to_contain_text(f"row {shipper.ship_available().head}")
        expect(card.locator(".marque")).to_contain_text(re.compile(r"[RNX=]( [RNX=])+"))
        expect(page.locator("#live")).to_have_text("live")
        deal(journal, seed=22, cards=30, pace=0, durable=False)
        started = time.monotonic()
        head = shipper.ship_available().head
        expect(card).to_contain_text(f"row {head}", timeout=1000)
        assert time.monotonic() - started < 1.0
        expect(page.locator("#stats")).to_contain_text("table T7")
        expect(page.locator("#money")).to_contain_text("T7")
        browser.close()
    shipper.close()
