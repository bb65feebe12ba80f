//! Documentation artifacts: the HTML and Markdown reference, the changelog feeds and the
//! OpenAPI 3.1 document, with the words for model expressions they use.

pub(super) mod asyncapi;
pub(super) mod feed;
pub(super) mod openapi;
pub(super) mod reference;
mod words;
