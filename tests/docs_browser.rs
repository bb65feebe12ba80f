//! The HTML reference in a real browser: headless Chromium opens `generated/docs/index.html`
//! from disk, and the test checks what a reader would meet: no console error, no network
//! request, a search box that filters to a typed permission name, and a page that reads with
//! scripts off. Screenshots are written under the target directory (`CARGO_TARGET_TMPDIR`).
//!
//! Chromium is driven over the DevTools protocol by a small synchronous client on tungstenite:
//! the browser is Debian's `chromium` package (what `scripts/test.sh` installs), so nothing
//! downloads a browser build, and no async runtime is needed for a strictly sequential script.
//! Set `CHROMIUM` to use another binary.

use serde_json::{Value, json};
use std::io::ErrorKind;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// Upper bound for any single wait (browser start, a call, a page load).
const WAIT: Duration = Duration::from_secs(45);

/// A headless Chromium with one page attached in flat session mode.
struct Browser {
    child: Child,
    _profile: tempfile::TempDir,
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
    session: String,
    next_id: u64,
    /// Every event received so far, in order.
    events: Vec<Value>,
}

impl Browser {
    fn launch() -> Browser {
        let binary = std::env::var("CHROMIUM").unwrap_or_else(|_| "chromium".into());
        let profile = tempfile::tempdir().unwrap();
        let child = Command::new(&binary)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start `{binary}` ({e}): install Debian's `chromium` package (`./scripts/test.sh` does) or set CHROMIUM"));
        let endpoint = devtools_endpoint(profile.path());
        let (mut ws, _) = tungstenite::connect(endpoint.as_str()).expect("connect to the DevTools endpoint");
        if let MaybeTlsStream::Plain(stream) = ws.get_mut() {
            stream.set_read_timeout(Some(Duration::from_millis(250))).unwrap();
        }
        let mut browser = Browser { child, _profile: profile, ws, session: String::new(), next_id: 0, events: Vec::new() };
        let target = browser.call_browser("Target.createTarget", json!({ "url": "about:blank" }));
        let attached = browser.call_browser("Target.attachToTarget", json!({ "targetId": target["targetId"], "flatten": true }));
        browser.session = attached["sessionId"].as_str().expect("a session id").to_owned();
        for domain in ["Page.enable", "Runtime.enable", "Log.enable", "Network.enable"] {
            browser.call(domain, json!({}));
        }
        browser.call("Emulation.setDeviceMetricsOverride", json!({ "width": 1400, "height": 1000, "deviceScaleFactor": 1, "mobile": false }));
        browser
    }

    fn send(&mut self, method: &str, params: Value, session: Option<&str>) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({ "id": id, "method": method, "params": params });
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        self.ws.send(Message::Text(msg.to_string().into())).expect("send to Chromium");
        let deadline = Instant::now() + WAIT;
        loop {
            let msg = self.receive(deadline).unwrap_or_else(|| panic!("no answer to {method} within {WAIT:?}"));
            if msg["id"] == id {
                assert!(msg.get("error").is_none(), "{method} failed: {}", msg["error"]);
                return msg["result"].clone();
            }
            self.events.push(msg);
        }
    }

    fn call_browser(&mut self, method: &str, params: Value) -> Value {
        self.send(method, params, None)
    }

    fn call(&mut self, method: &str, params: Value) -> Value {
        let session = self.session.clone();
        self.send(method, params, Some(&session))
    }

    /// The next message, or `None` once `deadline` passes.
    fn receive(&mut self, deadline: Instant) -> Option<Value> {
        while Instant::now() < deadline {
            match self.ws.read() {
                Ok(Message::Text(text)) => return Some(serde_json::from_str(&text).expect("DevTools sends JSON")),
                Ok(_) => {}
                Err(tungstenite::Error::Io(e)) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
                Err(e) => panic!("DevTools connection failed: {e}"),
            }
        }
        None
    }

    /// Waits for an event of the page's session.
    fn wait_for(&mut self, method: &str) {
        if self.events.iter().any(|e| e["method"] == method) {
            return;
        }
        let deadline = Instant::now() + WAIT;
        while let Some(msg) = self.receive(deadline) {
            let hit = msg["method"] == method;
            self.events.push(msg);
            if hit {
                return;
            }
        }
        panic!("no {method} within {WAIT:?}");
    }

    /// Opens `url` and waits until it has loaded.
    fn open(&mut self, url: &str) {
        self.events.clear();
        self.call("Page.navigate", json!({ "url": url }));
        self.wait_for("Page.loadEventFired");
    }

    /// Evaluates an expression in the page and returns its value.
    fn eval(&mut self, expression: &str) -> Value {
        let result = self.call("Runtime.evaluate", json!({ "expression": expression, "returnByValue": true }));
        assert!(result.get("exceptionDetails").is_none(), "`{expression}` threw: {}", result["exceptionDetails"]);
        result["result"]["value"].clone()
    }

    fn screenshot(&mut self, name: &str) -> PathBuf {
        use base64::Engine;
        let shot = self.call("Page.captureScreenshot", json!({ "format": "png" }));
        let png = base64::engine::general_purpose::STANDARD.decode(shot["data"].as_str().unwrap()).unwrap();
        assert!(png.starts_with(b"\x89PNG"), "the screenshot is not a PNG");
        let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
        std::fs::write(&path, png).unwrap();
        path
    }

    /// Console errors, uncaught exceptions and log errors seen since the last `open`.
    fn errors(&self) -> Vec<String> {
        self.events
            .iter()
            .filter_map(|e| {
                let p = &e["params"];
                match e["method"].as_str()? {
                    "Runtime.exceptionThrown" => Some(format!("exception: {}", p["exceptionDetails"])),
                    "Runtime.consoleAPICalled" if matches!(p["type"].as_str(), Some("error" | "assert" | "warning")) => {
                        Some(format!("console.{}: {}", p["type"], p["args"]))
                    }
                    "Log.entryAdded" if matches!(p["entry"]["level"].as_str(), Some("error" | "warning")) => Some(format!("log: {}", p["entry"]["text"])),
                    _ => None,
                }
            })
            .collect()
    }

    /// URLs the page requested since the last `open`.
    fn requests(&self) -> Vec<String> {
        self.events
            .iter()
            .filter(|e| e["method"] == "Network.requestWillBeSent")
            .map(|e| e["params"]["request"]["url"].as_str().unwrap_or_default().to_owned())
            .collect()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.ws.send(Message::Text(json!({ "id": 0, "method": "Browser.close" }).to_string().into()));
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The browser's WebSocket address, from the `DevToolsActivePort` file it writes on start.
fn devtools_endpoint(profile: &Path) -> String {
    let file = profile.join("DevToolsActivePort");
    let deadline = Instant::now() + WAIT;
    while Instant::now() < deadline {
        if let Ok(text) = std::fs::read_to_string(&file) {
            let mut lines = text.lines();
            if let (Some(port), Some(path)) = (lines.next(), lines.next()) {
                return format!("ws://127.0.0.1:{port}{path}");
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("Chromium wrote no {} within {WAIT:?}", file.display());
}

fn page() -> (PathBuf, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("generated/docs/index.html");
    assert!(path.exists(), "{} is missing: run `cargo run -p platform-codegen -- generate`", path.display());
    let url = format!("file://{}", path.display());
    (path, url)
}

/// A permission with a bit, to type into the search box.
fn permission_to_search() -> String {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("spec");
    let model = platform_codegen::load_spec(&spec, "spec").expect("the shipped spec is valid").model;
    model.permissions.iter().find(|p| p.bit.is_some()).expect("the spec has a permission with a bit").meta.id.clone()
}

/// Which permission rows show, and the text of each shown one.
const PERMISSION_ROWS: &str = r#"JSON.stringify([...document.querySelectorAll('tr[id^="permission-"]')]
    .map(e => ({ id: e.id, shown: e.getClientRects().length > 0, text: e.textContent.toLowerCase() })))"#;

fn rows(browser: &mut Browser) -> Vec<Value> {
    serde_json::from_str(browser.eval(PERMISSION_ROWS).as_str().unwrap()).unwrap()
}

#[test]
fn chromium_loads_the_page_and_its_search_filters_to_a_permission() {
    let (_, url) = page();
    let name = permission_to_search();
    let mut browser = Browser::launch();
    browser.open(&url);
    assert_eq!(browser.eval("document.readyState"), "complete");
    let errors = browser.errors();
    assert!(errors.is_empty(), "the page logged errors:\n{}", errors.join("\n"));
    let foreign: Vec<String> = browser.requests().into_iter().filter(|r| r != &url).collect();
    assert!(foreign.is_empty(), "the page made network requests: {foreign:?}");
    browser.screenshot("docs-top.png");

    let before = rows(&mut browser);
    assert!(before.iter().all(|r| r["shown"] == true), "every permission shows before a search");
    browser.eval("document.getElementById('search').focus()");
    browser.call("Input.insertText", json!({ "text": name }));
    let after = rows(&mut browser);
    let target = format!("permission-{name}");
    let needle = name.to_lowercase();
    assert!(after.iter().any(|r| r["id"] == target.as_str() && r["shown"] == true), "{target} is hidden after searching for it");
    for r in after.iter().filter(|r| r["shown"] == true) {
        assert!(r["text"].as_str().unwrap().contains(&needle), "{} shows but does not mention {name}", r["id"]);
    }
    assert!(after.iter().any(|r| r["shown"] == false), "searching {name} hid no other permission");
    let status = browser.eval("document.getElementById('search-status').textContent");
    assert!(status.as_str().unwrap().ends_with("matches") || status == "1 match", "no match count: {status}");
    let shot = browser.screenshot("docs-search.png");
    eprintln!("screenshot: {}", shot.display());
    let errors = browser.errors();
    assert!(errors.is_empty(), "searching logged errors:\n{}", errors.join("\n"));
}

#[test]
fn the_page_reads_with_scripts_off() {
    let (_, url) = page();
    let mut browser = Browser::launch();
    browser.call("Emulation.setScriptExecutionDisabled", json!({ "value": true }));
    browser.open(&url);
    let shown = browser.eval(
        "JSON.stringify({ items: [...document.querySelectorAll('main .item')].length, \
         visible: [...document.querySelectorAll('main .item')].filter(e => e.getClientRects().length > 0).length, \
         search: document.getElementById('search').getClientRects().length > 0, \
         marked: document.querySelectorAll('[data-date].upcoming, [data-date].past').length })",
    );
    let shown: Value = serde_json::from_str(shown.as_str().unwrap()).unwrap();
    assert!(shown["items"].as_u64().unwrap() > 100, "too few items: {shown}");
    assert_eq!(shown["items"], shown["visible"], "with scripts off every item must show: {shown}");
    assert_eq!(shown["search"], false, "the search box needs the script and must stay hidden without it");
    assert_eq!(shown["marked"], 0, "the script did run");
    browser.screenshot("docs-no-script.png");
}
