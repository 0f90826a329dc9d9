//! The one style of the options structs of this crate and its companions: private fields with
//! defaults, a `with_field(self, value) -> Self` setter (`#[must_use]`) and a `field(&self)`
//! getter each. The macro is exported (hidden) for the companion crates, not as public API.

/// Defines an options struct in the crate's style. Each field is
/// `getter / setter: copy Type = default;` (the getter returns the value) or
/// `getter / setter: ref Type = default;` (it returns a reference), optionally followed by
/// `map |value| expr` to adjust what the setter stores. Field docs become the getter's and
/// the setter's docs.
#[macro_export]
#[doc(hidden)]
macro_rules! __options {
    (
        $(#[$attr:meta])*
        pub struct $name:ident {
            $(
                $(#[doc = $doc:expr])*
                $get:ident / $set:ident : $kind:ident $ty:ty = $default:expr
                    $(, map $map:expr)?;
            )*
        }
    ) => {
        $(#[$attr])*
        pub struct $name {
            $($get: $ty,)*
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $($get: $default,)* }
            }
        }

        impl $name {
            $(
                $(#[doc = $doc])*
                #[must_use]
                pub fn $set(mut self, value: $ty) -> Self {
                    $(let value = ($map)(value);)?
                    self.$get = value;
                    self
                }

                $crate::__options!(@getter $kind $get [$(#[doc = $doc])*] $ty);
            )*
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
}
pub(crate) use __options as options;
