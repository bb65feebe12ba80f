fn main() {
    let _ = platform::error_code!(search_index_not_redy);
}
