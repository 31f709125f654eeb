#!/usr/bin/python3
"""The template's dashboard in the real Zabbix frontend, in headless Chromium.

usage: zabbix-dashboard.py FRONTEND-URL HOSTID PNG [MIN-GRAPHS]

Logs in as Admin (the fresh database's), opens the host's dashboard (the
template's "R10000 event counters") over the last 15 minutes, waits until
every graph image has loaded, and checks that the graphs show data: each
graph prototype's image has pixels of its line's colour (#1A7C11).
Saves a screenshot to PNG.  MIN-GRAPHS (default 7): the graph images
expected at least (the test's hosts: 3 counted events, the summed IPC, 2
CPUs' IPC, the state's simple graph).
Prints one line per graph; exits 1 when one has no data.
"""
import shutil
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

url, hostid, png = sys.argv[1:4]
want = int(sys.argv[4]) if len(sys.argv) > 4 else 7
profile = tempfile.mkdtemp(prefix="hwr-chromium-")
opts = webdriver.ChromeOptions()
for a in ("--headless=new", "--no-sandbox", "--disable-gpu",
          "--disable-dev-shm-usage", "--window-size=1400,1600",
          "--user-data-dir=" + profile):
    opts.add_argument(a)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
try:
    driver.get(url + "/index.php")
    driver.find_element(By.ID, "name").send_keys("Admin")
    driver.find_element(By.ID, "password").send_keys("zabbix")
    driver.find_element(By.ID, "enter").click()
    # The login's redirect first: php -S's workers may answer the next
    # request before it, and the browser would then follow the login's
    # redirect to the global dashboard, away from the host's.
    deadline = time.time() + 60
    while "index.php" in driver.current_url and time.time() < deadline:
        time.sleep(0.2)
    driver.get(url + "/zabbix.php?action=host.dashboard.view&hostid=" + hostid
               + "&from=now-15m&to=now")
    # The time selector opens with a period in the URL: close it.
    for tab in driver.find_elements(By.CSS_SELECTOR, ".btn-time"):
        try:
            tab.click()
        except Exception:
            pass
        break
    # Count, in every loaded chart image, the pixels of #1A7C11.
    count_js = """
    const out = [];
    for (const img of document.querySelectorAll('img')) {
        if (!/chart/.test(img.src)) continue;
        if (!img.complete || img.naturalWidth === 0) { out.push([img.src, -1]); continue; }
        const c = document.createElement('canvas');
        c.width = img.naturalWidth; c.height = img.naturalHeight;
        const g = c.getContext('2d'); g.drawImage(img, 0, 0);
        const d = g.getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4)
            if (Math.abs(d[i] - 0x1a) < 12 && Math.abs(d[i + 1] - 0x7c) < 12 && Math.abs(d[i + 2] - 0x11) < 12) n++;
        out.push([img.src, n]);
    }
    return out;"""
    graphs = []
    # php -S answers the widgets' requests; under a loaded CI machine the
    # page may take its time
    deadline = time.time() + 150
    while time.time() < deadline:
        graphs = driver.execute_script(count_js)
        if len(graphs) >= want and all(n >= 0 for _, n in graphs):
            break
        time.sleep(1)
    time.sleep(2)  # the last images' paint
    graphs = driver.execute_script(count_js)
    driver.save_screenshot(png)
    bad = 0
    for src, n in graphs:
        kind = "simple graph" if "itemids" in src else "graph"
        print(f"{kind}: {n} pixels of #1A7C11: {src.split('?')[0].rsplit('/', 1)[-1]}")
        if "itemids" not in src and n < 3:  # no data: no pixel of it
            bad += 1
    if len(graphs) < want:
        print(f"FAIL: {len(graphs)} graph images on the dashboard, {want} expected")
        print(f"page: {driver.current_url} '{driver.title}'")
        text = driver.find_element(By.TAG_NAME, "body").text
        print("page text: " + " | ".join(text.split("\n")[:30]))
        bad += 1
    sys.exit(1 if bad else 0)
finally:
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)
