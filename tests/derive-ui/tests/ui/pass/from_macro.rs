use hadoop_record::Record;

// Attribute values that pass through macro_rules! fragments arrive in invisible groups.
macro_rules! record {
    ($name:expr, $field:ident: $ty:ty = $tag:expr) => {
        #[derive(Record)]
        #[record(name = $name)]
        struct Generated {
            #[record(name = $tag)]
            $field: $ty,
        }
    };
}

record!("Link", url: String = "URL");

fn main() {
    assert_eq!(Generated::type_name(), "Link");
    let (schema, id) = Generated::schema();
    assert_eq!(schema.record(id).unwrap().fields[0].name, "URL");
}
