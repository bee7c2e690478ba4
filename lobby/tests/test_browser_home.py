"""The home page in a real browser served by the live ASGI server."""

from conftest import screenshot


def test_it_serves_the_home_page_with_htmx_to_a_browser(live_asgi_server, browser, screenshot_dir):
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    response = page.goto(live_asgi_server + "/")
    assert response.status == 200
    assert "Full Set" in page.title()
    assert page.evaluate("window.htmx && window.htmx.version").startswith("2.")
    screenshot(page, path=screenshot_dir / "home.png")
    assert errors == []
    page.close()
