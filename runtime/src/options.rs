//! The one style of the options structs of this crate and its companions: private fields with
//! defaults, a `with_field(self, value) -> Self` setter (`#[must_use]`) and a `field(&self)`
//! getter each. The macro is exported (hidden) for the companion crates, not as public API.

/// Defines an options struct in the crate's style. Each field is
/// `getter / setter: KIND Type = default;`, where KIND says what the getter returns: `copy`
/// the value, `ref` a reference, `string` (for a `String`) a `&str`, whose setter takes
/// `impl Into<String>`. `, map |value| expr` after the default adjusts what the setter
/// stores. A field's docs become its getter's and setter's; other attributes, each written
/// after them as `@ #[...]` (`@ #[serde(default)]`), go on the field.
///
/// `impl Name { getter / setter: KIND Type; ... }` gives only the getters and setters, for
/// a struct defined by hand (one without a `Default`, or with fields set otherwise).
#[macro_export]
#[doc(hidden)]
macro_rules! __options {
    (
        $(#[$attr:meta])*
        pub struct $name:ident {
            $(
                $(#[doc = $doc:expr])*
                $(@ #[$field_attr:meta])*
                $get:ident / $set:ident : $kind:ident $ty:ty = $default:expr
                    $(, map $map:expr)?;
            )*
        }
    ) => {
        $(#[$attr])*
        pub struct $name {
            $($(#[$field_attr])* $get: $ty,)*
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $($get: $default,)* }
            }
        }

        $crate::__options! {
            impl $name {
                $($(#[doc = $doc])* $get / $set : $kind $ty $(, map $map)?;)*
            }
        }
    };
    (
        impl $name:ident {
            $(
                $(#[doc = $doc:expr])*
                $get:ident / $set:ident : $kind:ident $ty:ty $(, map $map:expr)?;
            )*
        }
    ) => {
        impl $name {
            $(
                $crate::__options!(@setter $kind $get $set [$(#[doc = $doc])*] $ty $(, $map)?);
                $crate::__options!(@getter $kind $get [$(#[doc = $doc])*] $ty);
            )*
        }
    };
    (@setter string $get:ident $set:ident [$(#[doc = $doc:expr])*] $ty:ty) => {
        $(#[doc = $doc])*
        #[must_use]
        pub fn $set(mut self, value: impl Into<String>) -> Self {
            self.$get = value.into();
            self
        }
    };
    (@setter $kind:ident $get:ident $set:ident [$(#[doc = $doc:expr])*] $ty:ty $(, $map:expr)?) => {
        $(#[doc = $doc])*
        #[must_use]
        pub fn $set(mut self, value: $ty) -> Self {
            $(let value = ($map)(value);)?
            self.$get = value;
            self
        }
    };
    (@getter copy $get:ident [$(#[doc = $doc:expr])*] $ty:ty) => {
        $(#[doc = $doc])*
        pub fn $get(&self) -> $ty {
            self.$get
        }
    };
    (@getter ref $get:ident [$(#[doc = $doc:expr])*] $ty:ty) => {
        $(#[doc = $doc])*
        pub fn $get(&self) -> &$ty {
            &self.$get
        }
    };
    (@getter string $get:ident [$(#[doc = $doc:expr])*] $ty:ty) => {
        $(#[doc = $doc])*
        pub fn $get(&self) -> &str {
            &self.$get
        }
    };
}
pub(crate) use __options as options;
