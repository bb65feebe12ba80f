//! Documentation artifacts: the HTML and Markdown reference, and the OpenAPI 3.1 document, with
//! the words for model expressions both of them use.

pub(super) mod openapi;
pub(super) mod reference;
mod words;
