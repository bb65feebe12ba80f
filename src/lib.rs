//! The developer platform: typed model and compile-time checked macros, generated from `spec/`.
