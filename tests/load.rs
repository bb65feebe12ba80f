//! Ten seconds of `scripts/load.sh` against the reference server on loopback: wrk's mix of valid
//! and malformed requests beside bodies streamed past the upload cap and slow senders. No answer
//! is a 5xx, every slow sender is cut by the server's timeout, the server keeps running and its
//! resident memory does not grow more than 10% after the warm-up. Timings are printed, not
//! asserted. The five-minute figures are in docs/hardening.md.

use std::path::Path;
use std::process::Command;

#[test]
fn ten_seconds_of_mixed_load_give_no_5xx_and_flat_memory() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(root.join("scripts/load.sh"))
        .args(["10", "2000000"])
        .current_dir(root)
        .output()
        .expect("scripts/load.sh runs (it needs wrk and python3; scripts/test.sh installs wrk)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("{stdout}{stderr}");
    let summary = stdout.lines().find_map(|l| l.strip_prefix("LOAD_SUMMARY ")).unwrap_or_else(|| panic!("no summary line:\n{stdout}{stderr}"));
    let summary: serde_json::Value = serde_json::from_str(summary).unwrap();
    assert!(summary["requests"].as_u64().unwrap() > 1000, "the load ran: {summary}");
    assert_eq!(summary["status"]["5xx"], 0, "{summary}");
    assert!(summary["abuse"]["status"].as_object().unwrap().keys().all(|s| !s.starts_with('5')), "{summary}");
    assert_eq!(summary["abuse"]["uncut"], 0, "every slow sender is cut: {summary}");
    assert!(summary["abuse"]["slow_body"].as_u64().unwrap() > 0 && summary["abuse"]["oversized_chunked"].as_u64().unwrap() > 0, "{summary}");
    assert!(summary["rss_kib"]["growth_pct"].as_f64().unwrap() <= 10.0, "resident memory grew: {summary}");
    assert_eq!(summary["server_alive"], true);
    assert!(out.status.success(), "scripts/load.sh failed:\n{stderr}");
}
