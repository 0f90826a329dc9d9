//! Small constructors for the syn syntax tree that prettyplease prints. The back end builds
//! the tree directly rather than quoting tokens and parsing them back: on the 2,001-record
//! benchmark that parse was the largest single cost.

use proc_macro2::{Ident, Span, TokenStream};
use syn::punctuated::Punctuated;
use syn::{
    AngleBracketedGenericArguments, AttrStyle, Attribute, Expr, ExprLit, GenericArgument, Lit,
    LitStr, MacroDelimiter, Meta, MetaList, MetaNameValue, Path, PathArguments, PathSegment, Type,
    TypePath,
};

/// `name`, unescaped (keywords are allowed here: `self`, `super` as path segments).
pub(crate) fn ident(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

/// A path of plain segments: `a::b::C`, or `::a::b::C` with `leading_colon`.
pub(crate) fn path<I: IntoIterator<Item = Ident>>(leading_colon: bool, segments: I) -> Path {
    Path {
        leading_colon: leading_colon.then(Default::default),
        segments: segments.into_iter().map(PathSegment::from).collect(),
    }
}

/// `path<args…>`: the generic arguments go on the last segment.
pub(crate) fn generic(mut path: Path, args: Vec<Type>) -> Type {
    let last = path.segments.last_mut().expect("a path has a segment");
    last.arguments = PathArguments::AngleBracketed(AngleBracketedGenericArguments {
        colon2_token: None,
        lt_token: Default::default(),
        args: args.into_iter().map(GenericArgument::Type).collect(),
        gt_token: Default::default(),
    });
    path_type(path)
}

/// The type named by `path`.
pub(crate) fn path_type(path: Path) -> Type {
    Type::Path(TypePath { qself: None, path })
}

/// A primitive type such as `i32`.
pub(crate) fn primitive(name: &str) -> Type {
    path_type(Path::from(ident(name)))
}

/// `#[doc = "text"]`, printed as a `///` comment.
pub(crate) fn doc(text: &str) -> Attribute {
    outer(Meta::NameValue(MetaNameValue {
        path: Path::from(ident("doc")),
        eq_token: Default::default(),
        value: Expr::Lit(ExprLit {
            attrs: Vec::new(),
            lit: Lit::Str(LitStr::new(text, Span::call_site())),
        }),
    }))
}

/// `#[name(tokens)]`.
pub(crate) fn list(name: &str, tokens: TokenStream) -> Attribute {
    outer(Meta::List(MetaList {
        path: Path::from(ident(name)),
        delimiter: MacroDelimiter::Paren(Default::default()),
        tokens,
    }))
}

fn outer(meta: Meta) -> Attribute {
    Attribute {
        pound_token: Default::default(),
        style: AttrStyle::Outer,
        bracket_token: Default::default(),
        meta,
    }
}

/// Items separated by commas, for a struct's fields.
pub(crate) fn punctuated<T, P: Default>(items: impl IntoIterator<Item = T>) -> Punctuated<T, P> {
    items.into_iter().collect()
}
