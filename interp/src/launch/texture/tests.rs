use super::*;
use crate::launch::{LaunchSpec, Param};

const BASE: &str = r#"
kernel = "k"
grid = [1]
block = [32]
[[param]]
texture = "t"
[[param]]
surface = "s"
[[param]]
texture = "a"
[buffer.tb]
type = "f32"
len = 64
[buffer.sb]
type = "u8"
len = 256
output = true
[texture.t]
buffer = "tb"
format = "f32"
width = 8
height = 4
address = ["clamp", "border"]
filter = "linear"
[texture.a]
buffer = "sb"
format = "u8"
channels = 4
width = 4
height = 2
layers = 3
read_mode = "normalized_float"
normalized_coords = true
address = "wrap"
[surface.s]
buffer = "sb"
format = "u8"
channels = 4
width = 16
height = 4
"#;

fn parse(extra: &str) -> Result<LaunchSpec, String> {
    LaunchSpec::from_toml_str(&format!("{BASE}{extra}")).map_err(|e| e.to_string())
}

#[test]
fn objects_parse_and_get_handles_in_name_order() {
    let spec = parse("").unwrap();
    let o = &spec.objects;
    // Textures in name order: a = 0, t = 1.
    assert_eq!(o.handle(ObjectKind::Texture, "a"), Some(TEXTURE_HANDLE_BASE));
    assert_eq!(o.handle(ObjectKind::Texture, "t"), Some(TEXTURE_HANDLE_BASE + 1));
    assert_eq!(o.handle(ObjectKind::Surface, "s"), Some(SURFACE_HANDLE_BASE));
    let Param::Object(t) = &spec.params[0] else { panic!() };
    assert_eq!((t.kind, t.handle), (ObjectKind::Texture, TEXTURE_HANDLE_BASE + 1));
    let t = o.texture((TEXTURE_HANDLE_BASE + 1) as u32).unwrap();
    assert_eq!(t.address, [AddressMode::Clamp, AddressMode::Border, AddressMode::Clamp]);
    assert_eq!((t.filter, t.array.width, t.array.height, t.array.depth), (FilterMode::Linear, 8, 4, 1));
    let a = o.texture(TEXTURE_HANDLE_BASE as u32).unwrap();
    assert_eq!((a.array.layers, a.array.channels, a.read_mode), (3, 4, ReadMode::NormalizedFloat));
    assert_eq!(a.address, [AddressMode::Wrap; 3]);
    assert!(o.texture((TEXTURE_HANDLE_BASE + 2) as u32).is_none());
    assert!(o.texture(SURFACE_HANDLE_BASE as u32).is_none());
    assert_eq!(o.surface(SURFACE_HANDLE_BASE as u32).unwrap().array.texel_bytes(), 4);
    // The parameter block carries the handles (8 bytes each).
    let block = spec.param_block(|_| 0);
    assert_eq!(block.len(), 24);
    assert_eq!(u64::from_le_bytes(block[0..8].try_into().unwrap()), TEXTURE_HANDLE_BASE + 1);
    assert_eq!(u64::from_le_bytes(block[8..16].try_into().unwrap()), SURFACE_HANDLE_BASE);
    assert_eq!(u64::from_le_bytes(block[16..24].try_into().unwrap()), TEXTURE_HANDLE_BASE);
}

#[test]
fn bad_objects_are_located_errors() {
    let cases: &[(&str, &str)] = &[
        // A texture whose buffer is too small: 8 x 4 f32 texels need 128 bytes, tb has 256; ask for 80 x 4.
        ("[texture.big]\nbuffer = \"tb\"\nformat = \"f32\"\nwidth = 80\nheight = 4\n", "texture.big.buffer"),
        ("[texture.x]\nbuffer = \"nope\"\nformat = \"f32\"\nwidth = 1\n", "texture.x.buffer"),
        ("[texture.x]\nbuffer = \"tb\"\nformat = \"f64\"\nwidth = 1\n", "texture.x.format"),
        ("[texture.x]\nbuffer = \"tb\"\nformat = \"f32\"\nwidth = 1\nchannels = 3\n", "texture.x.channels"),
        ("[texture.x]\nbuffer = \"tb\"\nformat = \"f32\"\nwidth = 0\n", "texture.x.width"),
        ("[texture.x]\nbuffer = \"tb\"\nformat = \"f32\"\nwidth = 2\naddress = \"wrap\"\n", "texture.x.address"),
        ("[texture.x]\nbuffer = \"tb\"\nformat = \"f32\"\nwidth = 2\naddress = \"spin\"\n", "texture.x.address"),
        ("[texture.x]\nbuffer = \"tb\"\nformat = \"s32\"\nwidth = 2\nfilter = \"linear\"\n", "texture.x.filter"),
        (
            "[texture.x]\nbuffer = \"tb\"\nformat = \"f32\"\nwidth = 2\nread_mode = \"normalized_float\"\n",
            "texture.x.read_mode",
        ),
        ("[texture.x]\nbuffer = \"tb\"\nformat = \"f32\"\nwidth = 2\ndepth = 2\nlayers = 2\n", "texture.x"),
        ("[texture.x]\nbuffer = \"tb\"\nformat = \"f32\"\nwidth = 2\nmip = 2\n", "texture.x.mip"),
        ("[surface.y]\nbuffer = \"tb\"\nformat = \"f32\"\nwidth = 2\nfilter = \"point\"\n", "surface.y.filter"),
    ];
    for (extra, key) in cases {
        let e = parse(extra).expect_err(extra);
        assert!(e.contains(&format!("{key}:")) || e.contains(&format!("{key} ")), "{extra}: {e}");
    }
    let e = LaunchSpec::from_toml_str(&BASE.replace("texture = \"a\"", "texture = \"zz\"")).unwrap_err().to_string();
    assert!(e.contains("param[2].texture") && e.contains("not declared"), "{e}");
    let e = LaunchSpec::from_toml_str(&BASE.replace("texture = \"a\"", "texture = \"a\"\nbuffer = \"tb\""))
        .unwrap_err()
        .to_string();
    assert!(e.contains("param[2]") && e.contains("found both"), "{e}");
}
