//! Property: any syntax tree prints as DDL that parses back to the same tree, and the
//! spans of the reparsed tree point at the text they stand for.

use hadoop_record_compiler::source::Span;
use hadoop_record_compiler::syntax::{
    self,
    ast::{Class, Field, File, Ident, Include, Item, Module, Primitive, QualifiedName, TypeExpr},
};
use proptest::prelude::*;

fn ident() -> impl Strategy<Value = Ident> {
    "[A-Za-z][A-Za-z0-9_]{0,8}".prop_map(|text| Ident {
        text,
        span: Span::default(),
    })
}

fn name(max_segments: usize) -> impl Strategy<Value = QualifiedName> {
    proptest::collection::vec(ident(), 1..=max_segments).prop_map(|segments| QualifiedName {
        segments,
        span: Span::default(),
    })
}

fn type_expr() -> impl Strategy<Value = TypeExpr> {
    let leaf = prop_oneof![
        proptest::sample::select(Primitive::ALL.to_vec()).prop_map(|kind| TypeExpr::Primitive {
            kind,
            span: Span::default()
        }),
        // A record name must not be `vector`/`map`/a primitive: those parse differently.
        name(3)
            .prop_filter("not a keyword", |n| !syntax::ast::is_keyword(
                &n.segments[0].text
            ))
            .prop_map(TypeExpr::Record),
    ];
    leaf.prop_recursive(6, 32, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|t| TypeExpr::Vector {
                element: Box::new(t),
                span: Span::default()
            }),
            (inner.clone(), inner).prop_map(|(k, v)| TypeExpr::Map {
                key: Box::new(k),
                value: Box::new(v),
                span: Span::default()
            }),
        ]
    })
}

fn class() -> impl Strategy<Value = Class> {
    (
        ident(),
        proptest::collection::vec(
            (type_expr(), ident()).prop_map(|(ty, name)| Field {
                ty,
                name,
                span: Span::default(),
                comments: Default::default(),
            }),
            0..5,
        ),
    )
        .prop_map(|(name, fields)| Class {
            name,
            fields,
            span: Span::default(),
            semicolon: None,
            braces: Default::default(),
            comments: Default::default(),
        })
}

fn item() -> impl Strategy<Value = Item> {
    prop_oneof![
        "[a-z/._-]{1,12}".prop_map(|path| Item::Include(Include {
            path,
            path_span: Span::default(),
            span: Span::default(),
            comments: Default::default(),
        })),
        (name(3), proptest::collection::vec(class(), 0..4)).prop_map(|(name, classes)| {
            Item::Module(Module {
                name,
                classes,
                span: Span::default(),
                semicolon: None,
                braces: Default::default(),
                comments: Default::default(),
            })
        }),
    ]
}

fn file() -> impl Strategy<Value = File> {
    proptest::collection::vec(item(), 1..5).prop_map(|items| File {
        items,
        bom: None,
        unterminated_comment: None,
        comments: Vec::new(),
    })
}

/// Every span in a type, with the text it must cover.
fn type_spans(ty: &TypeExpr, out: &mut Vec<(Span, String)>) {
    out.push((ty.span(), ty.to_string()));
    match ty {
        TypeExpr::Vector { element, .. } => type_spans(element, out),
        TypeExpr::Map { key, value, .. } => {
            type_spans(key, out);
            type_spans(value, out);
        }
        TypeExpr::Primitive { .. } | TypeExpr::Record(_) => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn print_then_parse_is_the_identity(tree in file()) {
        let text = tree.to_string();
        let parsed = syntax::parse(&text)
            .map_err(|e| TestCaseError::fail(format!("{e:?}\n{text}")))?;
        prop_assert_eq!(parsed.clone().without_spans(), tree);

        // Spans of the reparsed tree cover exactly the printed text of each node (canonical
        // printing puts `, ` in maps, as the printer does).
        for item in &parsed.items {
            if let Item::Module(m) = item {
                prop_assert_eq!(&text[m.name.span.range()], m.name.to_string());
                prop_assert!(text[m.span.range()].starts_with("module"));
                prop_assert!(text[m.span.range()].ends_with('}'), "module span");
                for c in &m.classes {
                    prop_assert_eq!(&text[c.name.span.range()], c.name.text.as_str());
                    prop_assert!(text[c.span.range()].ends_with('}'), "class span");
                    for f in &c.fields {
                        prop_assert_eq!(&text[f.name.span.range()], f.name.text.as_str());
                        prop_assert_eq!(&text[f.span.range()], f.to_string());
                        let mut spans = Vec::new();
                        type_spans(&f.ty, &mut spans);
                        for (span, expected) in spans {
                            prop_assert_eq!(&text[span.range()], expected);
                        }
                    }
                }
            }
        }
    }
}
