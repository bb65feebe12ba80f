//! Handles and strings as C sees them, the C allocator, and the guard that keeps panics
//! from crossing into C.

use std::ffi::c_void;
use std::panic::{AssertUnwindSafe, catch_unwind};

// Strings go out through C `malloc` so that freeing them needs only the pointer, as C
// callers expect.
unsafe extern "C" {
    fn malloc(size: usize) -> *mut c_void;

    fn free(ptr: *mut c_void);
}

/// Frees memory from C `malloc`; NULL does nothing.
///
/// # Safety
///
/// `ptr` is NULL or came from this library's allocator and was not freed yet.
pub unsafe fn release(ptr: *mut c_void) {
    unsafe { free(ptr) }
}

/// Runs `body`, turning a panic into the zero value so that no unwind crosses into C.
pub fn guard<R: Default>(body: impl FnOnce() -> R) -> R {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or_default()
}

/// Writes `value` through `out` unless `out` is NULL; returns whether there was a value.
///
/// # Safety
///
/// `out` is NULL or valid for writes.
pub unsafe fn write_opt<T>(out: *mut T, value: Option<T>) -> bool {
    let Some(value) = value else { return false };
    if !out.is_null() {
        unsafe { out.write(value) };
    }
    true
}

/// An opaque handle: `struct { void *opaque; }` in C, owning a boxed `T` or empty (NULL).
#[repr(C)]
#[derive(Debug)]
pub struct Handle<T> {
    /// The boxed value, or NULL.
    pub opaque: *mut T,
}

impl<T> Handle<T> {
    /// The value behind `handle`; `None` for a NULL or empty handle.
    ///
    /// # Safety
    ///
    /// `handle` is NULL or points to an empty or live handle.
    pub unsafe fn get<'a>(handle: *const Self) -> Option<&'a T> {
        unsafe { handle.as_ref()?.opaque.as_ref() }
    }

    /// The value behind `handle`, mutably.
    ///
    /// # Safety
    ///
    /// As for [`Handle::get`], and no other reference to the value is alive.
    pub unsafe fn get_mut<'a>(handle: *mut Self) -> Option<&'a mut T> {
        unsafe { handle.as_mut()?.opaque.as_mut() }
    }

    /// Writes a new handle owning `value` (an empty one for `None`) without reading what
    /// `out` held; a NULL `out` drops the value.
    ///
    /// # Safety
    ///
    /// `out` is NULL or valid for writes.
    pub unsafe fn write(out: *mut Self, value: Option<T>) {
        if out.is_null() {
            return;
        }
        let opaque = value.map_or(std::ptr::null_mut(), |v| Box::into_raw(Box::new(v)));
        unsafe { out.write(Handle { opaque }) };
    }

    /// [`Handle::write`] for an optional value; returns whether there was one.
    ///
    /// # Safety
    ///
    /// As for [`Handle::write`].
    pub unsafe fn write_opt(out: *mut Self, value: Option<T>) -> bool {
        let present = value.is_some();
        if present {
            unsafe { Self::write(out, value) };
        }
        present
    }

    /// Frees the value and empties the handle; NULL and empty handles are left alone.
    ///
    /// # Safety
    ///
    /// `handle` is NULL or points to an empty or live handle that no alias drops again.
    pub unsafe fn drop(handle: *mut Self) {
        let Some(handle) = (unsafe { handle.as_mut() }) else { return };
        let opaque = std::mem::replace(&mut handle.opaque, std::ptr::null_mut());
        if !opaque.is_null() {
            drop(unsafe { Box::from_raw(opaque) });
        }
    }
}

/// Bytes borrowed from C for the duration of one call.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct StringView {
    /// The first byte; may be NULL when `size` is 0.
    pub ptr: *const u8,
    /// The number of bytes.
    pub size: usize,
}

impl StringView {
    /// A copy of the bytes; NULL or a zero size is the empty string.
    ///
    /// # Safety
    ///
    /// `ptr` is NULL or valid for reading `size` bytes.
    pub unsafe fn to_vec(self) -> Vec<u8> {
        if self.ptr.is_null() || self.size == 0 {
            return Vec::new();
        }
        unsafe { std::slice::from_raw_parts(self.ptr, self.size) }.to_vec()
    }

    /// A copy of the bytes `view` points to; `None` for a NULL `view`.
    ///
    /// # Safety
    ///
    /// `view` is NULL or points to a view valid as for [`Self::to_vec`].
    pub unsafe fn opt_to_vec(view: *const Self) -> Option<Vec<u8>> {
        unsafe { view.as_ref().map(|v| v.to_vec()) }
    }
}

/// Bytes the library hands to C: NUL-terminated, allocated with C `malloc`, freed by the header's
/// `<Prefix>_String_Free`.
#[repr(C)]
#[derive(Debug)]
pub struct OwnedString {
    /// The first byte, or NULL for the empty value.
    pub ptr: *mut u8,
    /// The number of bytes, without the NUL.
    pub size: usize,
}

impl OwnedString {
    /// A C copy of `bytes`; the empty value if allocation fails.
    pub fn copy_of(bytes: &[u8]) -> Self {
        let ptr = unsafe { malloc(bytes.len() + 1) }.cast::<u8>();
        if ptr.is_null() {
            return Self { ptr, size: 0 };
        }
        unsafe {
            ptr.copy_from_nonoverlapping(bytes.as_ptr(), bytes.len());
            ptr.add(bytes.len()).write(0);
        }
        Self { ptr, size: bytes.len() }
    }

    /// Writes a copy of `bytes` (the empty value for `None`) without reading what `out`
    /// held; a NULL `out` is ignored.
    ///
    /// # Safety
    ///
    /// `out` is NULL or valid for writes.
    pub unsafe fn write(out: *mut Self, bytes: Option<&[u8]>) {
        if out.is_null() {
            return;
        }
        let value = bytes.map_or(Self { ptr: std::ptr::null_mut(), size: 0 }, Self::copy_of);
        unsafe { out.write(value) };
    }

    /// [`Self::write`] for an optional value; returns whether there was one.
    ///
    /// # Safety
    ///
    /// As for [`Self::write`].
    pub unsafe fn write_opt(out: *mut Self, bytes: Option<&[u8]>) -> bool {
        let present = bytes.is_some();
        if present {
            unsafe { Self::write(out, bytes) };
        }
        present
    }
}
