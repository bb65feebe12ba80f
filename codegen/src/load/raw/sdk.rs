//! SDK surfaces: classes with methods, SDK calls, and embedded-app commands with their aliases.

use super::{Field, S};
use indexmap::IndexMap;

item! {
    /// A command of the embedded app SDK (or another command-style interface).
    pub struct Command {
        #[serde(default)]
        pub scopes: Vec<S<String>>,
        #[serde(default)]
        pub aliases: Vec<S<Alias>>,
    }
}

item! {
    /// An older name kept for an item, with its lifecycle.
    pub struct Alias {}
}

item! {
    /// A class of the social SDK.
    pub struct Class {
        /// The C++ namespace; defaults to the platform's.
        #[serde(default)]
        pub namespace: Option<S<String>>,
        #[serde(default)]
        pub fields: IndexMap<S<String>, S<Field>>,
        /// Methods other than field accessors.
        #[serde(default)]
        pub methods: Vec<S<Method>>,
        /// Value semantics: `copy`, `move`, `bool`, `nullobj`.
        #[serde(default)]
        pub semantics: Vec<S<String>>,
        /// What it is passed to, as typed references.
        #[serde(default)]
        pub used_by: Vec<S<String>>,
    }
}

item! {
    /// A method of an SDK class.
    pub struct Method {
        #[serde(default)]
        pub returns: Option<S<String>>,
    }
}

item! {
    /// A call of the social SDK (`Client::Authorize`), or a property of an options class.
    pub struct SdkCall {
        /// The C++ spelling (`Client::Authorize`).
        pub signature: S<String>,
        #[serde(default)]
        pub returns: Option<S<String>>,
        #[serde(default)]
        pub refs: Vec<S<String>>,
    }
}
