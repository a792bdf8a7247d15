//! Selection of the warp-wide operations `vote.sync` (`ballot`, `all`, `any`), `activemask`,
//! `redux.sync` and `match.{any,all}.sync`, checked on the SASS of a compiled kernel (our
//! decoder's listing) against the shapes NVIDIA's ptxas 13.0 emits for sm_90:
//!
//! - `vote.sync.ballot.b32 d, p, m` → `VOTE.ANY Rd, PT, Pp`;
//! - `vote.sync.{all,any,uni}.pred d, p, m` → `VOTE.{ALL,ANY,EQ} Pd, Pp` (no register
//!   destination);
//! - `activemask.b32 d` → `VOTE.ANY Rd, PT, PT`, with no `WARPSYNC`;
//! - `redux.sync.op.t d, a, m` → `REDUX.op URk, Ra` (`.SUM`, `.MIN`/`.MAX` with `.S32` when
//!   signed, `.OR`, `.XOR`, plain `REDUX` for `and`), then `MOV Rd, URk`;
//! - `match.any.sync.b32/b64 d, a, m` → `MATCH.ANY[.U64] Rd, Ra`; `match.all.sync.b32/b64
//!   d|p, a, m` → `MATCH.ALL[.U64] Pp, Rd, Ra`.
//!
//! Every collective is preceded by a `WARPSYNC` of its member mask (`WARPSYNC.ALL` for the
//! full warp, once per block), since our backend builds no `BSSY`/`BSYNC` reconvergence
//! regions; a partial mask is a register (`WARPSYNC Rm`).

use ptxas_rs::{backend, disasm, ptx};

/// A kernel applying `body` (PTX using `%r1` = the loaded word, `%p1` = its bit 0, `%r2` =
/// the result to store) once.
fn listing(body: &str, level: u8) -> String {
    let text = format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n\
         .visible .entry k(.param .u64 a, .param .u64 o)\n{{\n\
         .reg .pred %p<8>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n\
         ld.param.u64 %rd1, [a];\nld.param.u64 %rd2, [o];\n\
         cvta.to.global.u64 %rd1, %rd1;\ncvta.to.global.u64 %rd2, %rd2;\n\
         mov.u32 %r3, %tid.x;\nmul.wide.u32 %rd3, %r3, 4;\n\
         add.s64 %rd4, %rd1, %rd3;\nadd.s64 %rd5, %rd2, %rd3;\n\
         ld.global.u32 %r1, [%rd4];\nand.b32 %r4, %r1, 1;\nsetp.eq.u32 %p1, %r4, 1;\n\
         {body}\nst.global.u32 [%rd5], %r2;\nret;\n}}\n"
    );
    let ast = ptx::parse(&text, "k.ptx").unwrap();
    let opts = backend::Options { opt_level: level, ..backend::Options::default() };
    let c = backend::compile(&ast, &opts).unwrap_or_else(|e| panic!("{body}: {e:?}"));
    let l = disasm::listing(&c.cubin, false).unwrap();
    assert_eq!(l.undecoded, 0, "{}", l.text);
    l.text
}

/// The instruction texts of a listing (`VOTE.ANY R3, PT, P0`), without addresses.
fn insts(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            let rest = l.strip_prefix("/*")?.split_once("*/")?.1.trim();
            let rest = rest.split(';').next()?.trim();
            (!rest.is_empty()).then(|| rest.to_string())
        })
        .collect()
}

/// The instruction right after the one starting with `prefix`, and that one.
fn find<'a>(is: &'a [String], prefix: &str) -> (usize, &'a str) {
    let k = is.iter().position(|i| i.starts_with(prefix)).unwrap_or_else(|| panic!("no `{prefix}` in {is:#?}"));
    (k, &is[k])
}

/// Register operands of an instruction text.
fn operands(i: &str) -> Vec<String> {
    i.split_once(' ').map_or(vec![], |(_, o)| o.split(',').map(|s| s.trim().to_string()).collect())
}

/// Whether a `WARPSYNC` of the given spelling comes before position `k`.
fn synced_before(is: &[String], k: usize, sync: &str) -> bool {
    is[..k].iter().any(|i| i.starts_with(sync))
}

#[test]
fn ballot_is_vote_any_with_a_register() {
    for level in [0, 3] {
        let is = insts(&listing("vote.sync.ballot.b32 %r2, %p1, -1;", level));
        let (k, v) = find(&is, "VOTE.ANY");
        let ops = operands(v);
        assert_eq!(ops.len(), 3, "{v}");
        assert!(ops[0].starts_with('R') && ops[1] == "PT" && ops[2].starts_with('P') && ops[2] != "PT", "{v}");
        assert!(synced_before(&is, k, "WARPSYNC.ALL"), "{is:#?}");
    }
}

#[test]
fn vote_all_and_any_write_only_a_predicate() {
    for (op, sass) in [("all", "VOTE.ALL"), ("any", "VOTE.ANY"), ("uni", "VOTE.EQ")] {
        let body = format!("vote.sync.{op}.pred %p2, %p1, -1;\nselp.u32 %r2, 1, 0, %p2;");
        let is = insts(&listing(&body, 3));
        let (_, v) = find(&is, sass);
        let ops = operands(v);
        assert_eq!(ops.len(), 2, "{v}");
        assert!(ops.iter().all(|o| o.trim_start_matches('!').starts_with('P')), "{v}");
    }
}

#[test]
fn activemask_is_vote_any_pt_pt_without_warpsync() {
    let is = insts(&listing("activemask.b32 %r2;", 3));
    let (_, v) = find(&is, "VOTE.ANY");
    let ops = operands(v);
    assert!(ops[0].starts_with('R') && ops[1] == "PT" && ops[2] == "PT", "{v}");
    assert!(!is.iter().any(|i| i.starts_with("WARPSYNC")), "{is:#?}");
}

#[test]
fn redux_writes_a_uniform_register_then_moves_it() {
    for (op, sass) in [
        ("add.u32", "REDUX.SUM"),
        ("min.u32", "REDUX.MIN"),
        ("max.u32", "REDUX.MAX"),
        ("min.s32", "REDUX.MIN.S32"),
        ("max.s32", "REDUX.MAX.S32"),
        ("and.b32", "REDUX"),
        ("or.b32", "REDUX.OR"),
        ("xor.b32", "REDUX.XOR"),
    ] {
        for level in [0, 3] {
            let is = insts(&listing(&format!("redux.sync.{op} %r2, %r1, -1;"), level));
            let (k, v) = find(&is, &format!("{sass} "));
            let ops = operands(v);
            assert!(ops[0].starts_with("UR") && ops[1].starts_with('R'), "{op}: {v}");
            let mv = is[k + 1..].iter().find(|i| i.contains(&ops[0])).unwrap_or_else(|| panic!("{is:#?}"));
            assert!(mv.starts_with("MOV R") || mv.starts_with("IMAD.U32 R"), "{op}: {mv}");
            assert!(synced_before(&is, k, "WARPSYNC.ALL"), "{is:#?}");
        }
    }
}

#[test]
fn partial_masks_sync_on_a_register() {
    let is = insts(&listing("redux.sync.add.u32 %r2, %r1, 0xffff;", 3));
    let (k, _) = find(&is, "REDUX.SUM");
    let w = is[..k].iter().rev().find(|i| i.starts_with("WARPSYNC")).unwrap_or_else(|| panic!("{is:#?}"));
    let ops = operands(w);
    assert!(ops.len() == 1 && ops[0].starts_with('R'), "{w}");
}

#[test]
fn match_any_and_all() {
    let is = insts(&listing("match.any.sync.b32 %r2, %r1, -1;", 3));
    let (_, v) = find(&is, "MATCH.ANY ");
    let ops = operands(v);
    assert!(ops.len() == 2 && ops.iter().all(|o| o.starts_with('R')), "{v}");

    let is = insts(&listing("cvt.u64.u32 %rd6, %r1;\nmatch.any.sync.b64 %r2, %rd6, -1;", 3));
    let (_, v) = find(&is, "MATCH.ANY.U64 ");
    assert_eq!(operands(v).len(), 2, "{v}");

    let body = "match.all.sync.b32 %r5|%p2, %r1, -1;\nselp.u32 %r6, 1, 0, %p2;\nadd.u32 %r2, %r5, %r6;";
    let is = insts(&listing(body, 3));
    let (_, v) = find(&is, "MATCH.ALL ");
    let ops = operands(v);
    assert!(ops.len() == 3 && ops[0].starts_with('P') && ops[1].starts_with('R') && ops[2].starts_with('R'), "{v}");

    let body = "cvt.u64.u32 %rd6, %r1;\nmatch.all.sync.b64 %r5|%p2, %rd6, -1;\nselp.u32 %r6, 1, 0, %p2;\nadd.u32 %r2, %r5, %r6;";
    let is = insts(&listing(body, 3));
    let (_, v) = find(&is, "MATCH.ALL.U64 ");
    let ops = operands(v);
    assert!(ops.len() == 3 && ops[0].starts_with('P') && ops[1].starts_with('R') && ops[2].starts_with('R'), "{v}");
}

#[test]
fn one_warpsync_all_per_block() {
    let body = "vote.sync.ballot.b32 %r5, %p1, -1;\nredux.sync.add.u32 %r6, %r1, -1;\n\
                match.any.sync.b32 %r7, %r1, -1;\nadd.u32 %r2, %r5, %r6;\nadd.u32 %r2, %r2, %r7;";
    let is = insts(&listing(body, 3));
    assert_eq!(is.iter().filter(|i| i.starts_with("WARPSYNC")).count(), 1, "{is:#?}");
}
