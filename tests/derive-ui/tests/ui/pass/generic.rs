use hadoop_record::archive::binary::RawInput;
use hadoop_record::Record;

/// A type parameter becomes `T: Field + 'static`; each instantiation is its own record type.
#[derive(Record, Debug, PartialEq)]
struct Pair<T> {
    key: T,
    count: i32,
}

#[derive(Record)]
struct Holder<T, const N: usize> {
    pairs: Vec<Pair<T>>,
}

fn main() {
    assert_eq!(Pair::<String>::signature(), "LPair(si)");
    assert_eq!(Pair::<Vec<i64>>::signature(), "LPair([l]i)");
    assert_eq!(Holder::<bool, 3>::signature(), "LHolder([LPair(zi)])");
    let bytes = [0x01, 0x05];
    let pair = Pair::<bool>::read_from(&mut RawInput::new(&bytes), "").unwrap();
    assert_eq!(pair, Pair { key: true, count: 5 });
}
