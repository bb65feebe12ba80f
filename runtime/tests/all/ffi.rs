//! The C ABI's building blocks: NULL is a defined no-op everywhere, strings carry their NUL, and
//! no panic crosses the boundary.

use platform_codegen_runtime::ffi::{self, Handle, OwnedString, StringView};

#[test]
fn views_copy_what_they_point_to_and_null_is_empty() {
    let text = b"hello";
    let view = StringView { ptr: text.as_ptr(), size: text.len() };
    assert_eq!(unsafe { view.to_vec() }, b"hello");
    let null = StringView { ptr: std::ptr::null(), size: 3 };
    assert_eq!(unsafe { null.to_vec() }, b"");
    assert_eq!(unsafe { StringView::opt_to_vec(std::ptr::null()) }, None);
    assert_eq!(unsafe { StringView::opt_to_vec(&view) }, Some(b"hello".to_vec()));
}

#[test]
fn owned_strings_are_nul_terminated_c_allocations() {
    let mut out = OwnedString { ptr: std::ptr::null_mut(), size: 0 };
    unsafe { OwnedString::write(&mut out, Some(b"abc")) };
    assert_eq!(out.size, 3);
    let written = unsafe { std::slice::from_raw_parts(out.ptr, 4) };
    assert_eq!(written, b"abc\0");
    unsafe { ffi::release(out.ptr.cast()) };
    assert!(!unsafe { OwnedString::write_opt(&mut out, None) }, "no value, nothing written");
    unsafe { OwnedString::write(std::ptr::null_mut(), Some(b"ignored")) };
}

#[test]
fn handles_own_their_value_until_dropped() {
    let mut handle = Handle::<String> { opaque: std::ptr::null_mut() };
    unsafe { Handle::write(&mut handle, Some("value".to_owned())) };
    assert_eq!(unsafe { Handle::get(&handle) }.map(String::as_str), Some("value"));
    unsafe { Handle::get_mut(&mut handle) }.unwrap().push('!');
    assert_eq!(unsafe { Handle::get(&handle) }.map(String::as_str), Some("value!"));
    unsafe { Handle::drop(&mut handle) };
    assert!(handle.opaque.is_null());
    unsafe { Handle::drop(&mut handle) };
    unsafe { Handle::<String>::drop(std::ptr::null_mut()) };
    assert_eq!(unsafe { Handle::<String>::get(std::ptr::null()) }, None);
}

#[test]
fn a_panic_becomes_the_zero_value() {
    assert_eq!(ffi::guard(|| 7), 7);
    assert_eq!(ffi::guard::<i32>(|| panic!("inside the library")), 0);
    let mut out = 0;
    assert!(unsafe { ffi::write_opt(&mut out, Some(5)) });
    assert_eq!(out, 5);
    assert!(unsafe { ffi::write_opt(std::ptr::null_mut(), Some(5)) }, "a NULL out-pointer still says there was a value");
}
