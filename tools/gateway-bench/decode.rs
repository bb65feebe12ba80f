//! Decoding Discord Gateway v10 dispatch frames to typed events: the generated Discord types
//! (the frame read as the generated shard reads it, the payload decoded by the event union)
//! against `twilight-model`'s gateway deserializer, the way `twilight-gateway` parses a frame.
//! Both read the same frames (`frames.jsonl`: MESSAGE_CREATE, PRESENCE_UPDATE and GUILD_CREATE
//! in Discord's documented shapes) from text to a typed event.
//!
//! Run by `scripts/bench-gateway.sh`, which generates the Discord crates first. Besides
//! criterion's times it prints allocations per event, counted by the global allocator below.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use discord_types::gateways::{GATEWAY, GatewayEvent};
use discord_types::session::{Data, Frame, Read, Take};
use serde::de::DeserializeSeed;
use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use twilight_model::gateway::event::{GatewayEvent as TwilightEvent, GatewayEventDeserializer};

/// The system allocator, counting allocations (a `realloc` counts as one).
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call is passed on to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const FRAMES: &str = include_str!("frames.jsonl");

fn frames() -> Vec<&'static str> {
    FRAMES.lines().filter(|l| !l.is_empty()).collect()
}

/// What the generated shard does with a dispatch frame: read it in one pass, the payload
/// decoded as the event the frame names.
fn ours(text: &str) -> Read<GatewayEvent> {
    let dispatch = Some(GATEWAY.opcodes.dispatch);
    Frame::read_with(&GATEWAY.envelope, dispatch, text, |_| Take::Decode).unwrap_or_else(|e| panic!("{e}: {}", &text[..text.len().min(80)]))
}

/// What `twilight-gateway` does with a frame: scan it for the opcode and event name, then
/// deserialize the whole frame with that knowledge.
fn twilight(text: &str) -> TwilightEvent {
    let seed = GatewayEventDeserializer::from_json(text).expect("an opcode");
    let mut de = serde_json::Deserializer::from_str(text);
    seed.deserialize(&mut de).unwrap_or_else(|e| panic!("twilight: {e}: {}", &text[..text.len().min(80)]))
}

/// Allocations per frame over one pass, for each decoder and each event name.
fn report_allocations(frames: &[&str]) {
    let count = |decode: &dyn Fn(&str)| {
        let before = ALLOCATIONS.load(Relaxed);
        for f in frames {
            decode(f);
        }
        (ALLOCATIONS.load(Relaxed) - before) as f64 / frames.len() as f64
    };
    let ours_per = count(&|f| drop(black_box(ours(f))));
    let theirs_per = count(&|f| drop(black_box(twilight(f))));
    println!("allocations per event, {} frames: ours {ours_per:.1}, twilight-model {theirs_per:.1}", frames.len());
    for name in ["MESSAGE_CREATE", "PRESENCE_UPDATE", "GUILD_CREATE"] {
        let some: Vec<&str> = frames.iter().copied().filter(|f| f.contains(&format!("\"t\":\"{name}\""))).collect();
        let before = ALLOCATIONS.load(Relaxed);
        some.iter().for_each(|f| drop(black_box(ours(f))));
        let mid = ALLOCATIONS.load(Relaxed);
        some.iter().for_each(|f| drop(black_box(twilight(f))));
        let after = ALLOCATIONS.load(Relaxed);
        let n = some.len() as f64;
        println!("  {name} ({} frames): ours {:.1}, twilight-model {:.1}", some.len(), (mid - before) as f64 / n, (after - mid) as f64 / n);
    }
}

fn decode(c: &mut Criterion) {
    let frames = frames();
    for f in &frames {
        let read = ours(f);
        assert!(matches!(read.data, Data::Event(ref e) if !matches!(e, GatewayEvent::Unknown { .. })), "not decoded: {read:?}");
    }
    report_allocations(&frames);
    let mut group = c.benchmark_group("gateway_decode");
    group.throughput(Throughput::Elements(frames.len() as u64));
    group.bench_function("ours", |b| b.iter(|| frames.iter().for_each(|f| drop(black_box(ours(black_box(f)))))));
    group.bench_function("twilight-model", |b| b.iter(|| frames.iter().for_each(|f| drop(black_box(twilight(black_box(f)))))));
    group.finish();
    for name in ["MESSAGE_CREATE", "PRESENCE_UPDATE", "GUILD_CREATE"] {
        let some: Vec<&str> = frames.iter().copied().filter(|f| f.contains(&format!("\"t\":\"{name}\""))).collect();
        let mut group = c.benchmark_group(format!("gateway_decode/{name}"));
        group.throughput(Throughput::Elements(some.len() as u64));
        group.bench_function("ours", |b| b.iter(|| some.iter().for_each(|f| drop(black_box(ours(black_box(f)))))));
        group.bench_function("twilight-model", |b| b.iter(|| some.iter().for_each(|f| drop(black_box(twilight(black_box(f)))))));
        group.finish();
    }
}

criterion_group!(benches, decode);
criterion_main!(benches);
