// What the spec deprecates is `#[deprecated]` in the generated Rust, so the compiler names the
// change wherever it is used: the embedded SDK command's former name, an enum value, and the
// client method of a deprecated endpoint (the last two from the fixture spec).
#![deny(deprecated)]

fn main() {
    let _ = platform::commands::Command::GET_INSTANCE_CONNECTED_PARTICIPANTS;
    let _ = widget_types::enums::WidgetKind::Tiny;
    let _ = widget_client::Client::count_widgets;
}
