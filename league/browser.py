"""The board as a person sees it: the system's Chromium, driven by Playwright, reads the standings off the page.

Playwright never fetches a browser here: it launches the Chromium of the Debian package (``chromium``)
by its path. The standings are read from the page's table after its scripts ran, exactly as shown, so
the browser test and ``league simulate --screenshot`` judge what a person would read on the wall.
"""

from __future__ import annotations

import shutil
from pathlib import Path

READ_STANDINGS = """rows => rows.map(r => [
  r.querySelector('td.name').textContent,
  Object.fromEntries([...r.querySelectorAll('td[data-field]')].map(td => [td.dataset.field, Number(td.textContent)]))
])"""


def chromium_path() -> str | None:
    """The system's Chromium (Debian's ``chromium`` package), or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Page:
    """A headless Chromium on one page of the board; use as a context manager."""

    def __init__(self, url: str, width: int = 1280, height: int = 900) -> None:
        exe = chromium_path()
        if exe is None:
            raise RuntimeError("no Chromium: apt-get install chromium")
        from playwright.sync_api import sync_playwright

        self._pw = sync_playwright().start()
        try:
            self._browser = self._pw.chromium.launch(executable_path=exe, headless=True, args=["--no-sandbox"])
            self.page = self._browser.new_page(viewport={"width": width, "height": height})
            self.page.goto(url)
        except BaseException:
            self._pw.stop()
            raise

    def standings(self) -> dict[str, dict[str, int]]:
        """Each player's record as the page's standings table shows it."""
        self.page.wait_for_selector("#standings")
        rows = self.page.eval_on_selector_all("#standings tbody tr", READ_STANDINGS)
        return {str(name): {str(k): int(v) for k, v in rec.items()} for name, rec in rows}

    def wait_for_player(self, name: str, timeout_s: float = 15.0) -> None:
        """Until the standings show ``name`` (a live update arrived)."""
        self.page.locator("#standings td.name", has_text=name).first.wait_for(timeout=timeout_s * 1000)

    def screenshot(self, path: Path) -> None:
        """The whole page as a PNG, in 64 colours (a page of flat colours: a third of the size, no visible loss)."""
        from PIL import Image

        path.parent.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(path), full_page=True)
        with Image.open(path) as shot:
            small = shot.convert("RGB").quantize(colors=64)
        small.save(path, optimize=True)

    def close(self) -> None:
        try:
            self._browser.close()
        finally:
            self._pw.stop()

    def __enter__(self) -> Page:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
