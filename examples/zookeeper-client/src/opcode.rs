//! ZooKeeper's operation codes (`ZooDefs.OpCode`) and their names as ZooKeeper prints them
//! (`Request.op2String`).

/// `(code, name)` for every `ZooDefs.OpCode` of ZooKeeper 3.9.
const OPS: &[(i32, &str)] = &[
    (0, "notification"),
    (1, "create"),
    (2, "delete"),
    (3, "exists"),
    (4, "getData"),
    (5, "setData"),
    (6, "getACL"),
    (7, "setACL"),
    (8, "getChildren"),
    (9, "sync"),
    (11, "ping"),
    (12, "getChildren2"),
    (13, "check"),
    (14, "multi"),
    (15, "create2"),
    (16, "reconfig"),
    (17, "checkWatches"),
    (18, "removeWatches"),
    (19, "createContainer"),
    (20, "deleteContainer"),
    (21, "createTTL"),
    (22, "multiRead"),
    (100, "auth"),
    (101, "setWatches"),
    (102, "sasl"),
    (103, "getEphemerals"),
    (104, "getAllChildrenNumber"),
    (105, "setWatches2"),
    (106, "addWatch"),
    (107, "whoAmI"),
    (-10, "createSession"),
    (-11, "closeSession"),
    (-1, "error"),
];

/// `create`
pub const CREATE: i32 = 1;
/// `delete`
pub const DELETE: i32 = 2;
/// `getData`
pub const GET_DATA: i32 = 4;
/// `setData`
pub const SET_DATA: i32 = 5;
/// `setACL`
pub const SET_ACL: i32 = 7;
/// `getChildren`
pub const GET_CHILDREN: i32 = 8;
/// `ping`
pub const PING: i32 = 11;
/// `multi`
pub const MULTI: i32 = 14;
/// `create2`
pub const CREATE2: i32 = 15;
/// `reconfig`
pub const RECONFIG: i32 = 16;
/// `createContainer`
pub const CREATE_CONTAINER: i32 = 19;
/// `deleteContainer`
pub const DELETE_CONTAINER: i32 = 20;
/// `createTTL`
pub const CREATE_TTL: i32 = 21;
/// `createSession`
pub const CREATE_SESSION: i32 = -10;
/// `closeSession`
pub const CLOSE_SESSION: i32 = -11;
/// `error`
pub const ERROR: i32 = -1;

/// The name ZooKeeper prints for `op` (`Request.op2String`): `unknown N` for others.
pub fn name(op: i32) -> String {
    OPS.iter()
        .find(|(c, _)| *c == op)
        .map_or_else(|| format!("unknown {op}"), |(_, n)| (*n).to_string())
}
