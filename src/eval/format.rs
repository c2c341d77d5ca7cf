//! The weight-file format (bytes fixed in `eval_weights/FORMAT.md`): an image of header, table
//! directory, 4096-byte aligned little-endian tables and a JSON provenance block. The same image is
//! what `Weights` holds in memory, whether it is a read-only memory map of a file (shared between
//! engine processes by the page cache) or an owned buffer built by the writer (embedded default,
//! learner). Everything read from a file is checked before a table is handed out.

use byteorder::{ByteOrder, LittleEndian as LE};
use memmap2::Mmap;
use std::fs::File;
use std::io::Write;
use std::path::Path;
use xxhash_rust::xxh3::xxh3_64;

pub const MAGIC: &[u8; 8] = b"KISHIWT\0";
pub const FORMAT_VERSION: u32 = 1;
/// Tables start on this boundary so that a mapped table can be viewed in place as `&[i16]`/`&[i32]`.
pub const ALIGN: usize = 4096;
const HEADER_FIXED: usize = 128;
const ENTRY_BYTES: usize = 80;
/// Directory entries that fit in the one-page header of format version 1.
pub const MAX_TABLES: usize = (ALIGN - HEADER_FIXED) / ENTRY_BYTES;
const NAME_BYTES: usize = 24;
const GAME_BYTES: usize = 16;
const HEADER_CHECKSUM_AT: usize = 96;

/// Element type of a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Elem {
    I16,
    I32,
}

impl Elem {
    pub fn size(self) -> usize {
        match self {
            Elem::I16 => 2,
            Elem::I32 => 4,
        }
    }
    fn code(self) -> u8 {
        match self {
            Elem::I16 => 1,
            Elem::I32 => 2,
        }
    }
    fn from_code(c: u8) -> Option<Elem> {
        match c {
            1 => Some(Elem::I16),
            2 => Some(Elem::I32),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Elem::I16 => "i16",
            Elem::I32 => "i32",
        }
    }
}

/// What a feature set expects of one of its tables.
#[derive(Debug, Clone, Copy)]
pub struct TableSpec {
    pub name: &'static str,
    pub elem: Elem,
    pub dims: &'static [u32],
    /// An absent optional table reads as all zeros (and the evaluation skips it).
    pub required: bool,
}

impl TableSpec {
    pub fn len(&self) -> usize {
        self.dims.iter().map(|&d| d as usize).product()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn bytes(&self) -> usize {
        self.len() * self.elem.size()
    }
}

/// Table contents handed to the writer.
pub enum TableData<'a> {
    I16(&'a [i16]),
    I32(&'a [i32]),
}

impl TableData<'_> {
    fn elem(&self) -> Elem {
        match self {
            TableData::I16(_) => Elem::I16,
            TableData::I32(_) => Elem::I32,
        }
    }
    fn len(&self) -> usize {
        match self {
            TableData::I16(v) => v.len(),
            TableData::I32(v) => v.len(),
        }
    }
    fn write_le(&self, out: &mut [u8]) {
        match self {
            TableData::I16(v) => LE::write_i16_into(v, out),
            TableData::I32(v) => LE::write_i32_into(v, out),
        }
    }
}

/// One directory entry, as read from a header.
#[derive(Debug, Clone)]
pub struct TableEntry {
    pub name: String,
    pub elem: Elem,
    pub dims: Vec<u32>,
    pub offset: u64,
    pub bytes: u64,
    pub checksum: u64,
}

/// A parsed header (no table contents).
#[derive(Debug, Clone)]
pub struct Header {
    pub version: u32,
    pub header_bytes: u32,
    pub file_bytes: u64,
    pub game: String,
    pub feature_set: String,
    pub feature_set_version: u32,
    pub tables: Vec<TableEntry>,
    pub provenance_offset: u64,
    pub provenance_bytes: u64,
    pub provenance_checksum: u64,
}

fn padded_str(bytes: &[u8]) -> Result<String, String> {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    let s = std::str::from_utf8(&bytes[..end]).map_err(|_| "a name is not ASCII".to_string())?;
    if !s.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(format!(
            "name '{}' has non-printable bytes",
            s.escape_debug()
        ));
    }
    Ok(s.to_string())
}

fn put_padded(out: &mut [u8], s: &str) {
    let b = s.as_bytes();
    out[..b.len()].copy_from_slice(b);
}

fn align_up(x: usize) -> usize {
    x.div_ceil(ALIGN) * ALIGN
}

/// Parses and checks the header of an image: magic, version, lengths, header checksum, directory
/// geometry (alignment, bounds, sizes). Table contents are not read.
pub fn parse_header(img: &[u8]) -> Result<Header, String> {
    if img.len() < 8 || &img[..8] != MAGIC {
        return Err("not a kishi weight file (bad magic)".into());
    }
    if img.len() < HEADER_FIXED {
        return Err(format!(
            "truncated: {} bytes, shorter than a header",
            img.len()
        ));
    }
    let version = LE::read_u32(&img[8..]);
    if version != FORMAT_VERSION {
        return Err(format!(
            "unsupported format version {version} (this kishi reads version {FORMAT_VERSION})"
        ));
    }
    let header_bytes = LE::read_u32(&img[12..]);
    let file_bytes = LE::read_u64(&img[16..]);
    if img.len() as u64 != file_bytes {
        return Err(if (img.len() as u64) < file_bytes {
            format!(
                "truncated: the header says {file_bytes} bytes, the file has {}",
                img.len()
            )
        } else {
            format!(
                "wrong length: the header says {file_bytes} bytes, the file has {}",
                img.len()
            )
        });
    }
    if header_bytes as usize != ALIGN || img.len() < ALIGN {
        return Err(format!(
            "bad header length {header_bytes} (expected {ALIGN})"
        ));
    }
    let stored = LE::read_u64(&img[HEADER_CHECKSUM_AT..]);
    if header_checksum(&img[..ALIGN]) != stored {
        return Err("header checksum mismatch (the header is corrupt)".into());
    }
    let game = padded_str(&img[24..24 + GAME_BYTES])?;
    let feature_set = padded_str(&img[40..40 + NAME_BYTES])?;
    let feature_set_version = LE::read_u32(&img[64..]);
    let n = LE::read_u32(&img[68..]) as usize;
    if n > MAX_TABLES {
        return Err(format!(
            "{n} tables in the directory (at most {MAX_TABLES})"
        ));
    }
    let provenance_offset = LE::read_u64(&img[72..]);
    let provenance_bytes = LE::read_u64(&img[80..]);
    let provenance_checksum = LE::read_u64(&img[88..]);
    let in_file = |off: u64, len: u64| off.checked_add(len).is_some_and(|end| end <= file_bytes);
    if !in_file(provenance_offset, provenance_bytes) || provenance_offset < ALIGN as u64 {
        return Err("the provenance block lies outside the file".into());
    }
    let mut tables = Vec::with_capacity(n);
    for i in 0..n {
        let e = &img[HEADER_FIXED + i * ENTRY_BYTES..HEADER_FIXED + (i + 1) * ENTRY_BYTES];
        let name = padded_str(&e[..NAME_BYTES])?;
        let elem = Elem::from_code(e[24])
            .ok_or_else(|| format!("table '{name}': unknown element type {}", e[24]))?;
        let ndims = e[25] as usize;
        if !(1..=4).contains(&ndims) {
            return Err(format!(
                "table '{name}': {ndims} dimensions (1 to 4 allowed)"
            ));
        }
        let dims: Vec<u32> = (0..ndims).map(|d| LE::read_u32(&e[32 + 4 * d..])).collect();
        let offset = LE::read_u64(&e[48..]);
        let bytes = LE::read_u64(&e[56..]);
        let checksum = LE::read_u64(&e[64..]);
        let expect = dims
            .iter()
            .try_fold(elem.size() as u64, |acc, &d| acc.checked_mul(d as u64));
        if expect != Some(bytes) {
            return Err(format!(
                "table '{name}': {bytes} bytes do not match dimensions {dims:?} of {}",
                elem.name()
            ));
        }
        if offset % ALIGN as u64 != 0 || offset < ALIGN as u64 {
            return Err(format!(
                "table '{name}': offset {offset} is not 4096-byte aligned"
            ));
        }
        if !in_file(offset, bytes) {
            return Err(format!("table '{name}' lies outside the file"));
        }
        tables.push(TableEntry {
            name,
            elem,
            dims,
            offset,
            bytes,
            checksum,
        });
    }
    Ok(Header {
        version,
        header_bytes,
        file_bytes,
        game,
        feature_set,
        feature_set_version,
        tables,
        provenance_offset,
        provenance_bytes,
        provenance_checksum,
    })
}

fn header_checksum(header: &[u8]) -> u64 {
    let mut copy = header.to_vec();
    copy[HEADER_CHECKSUM_AT..HEADER_CHECKSUM_AT + 8].fill(0);
    xxh3_64(&copy)
}

/// Parses a header and checks every checksum in the image (tables and provenance): what can be
/// checked without knowing the feature set. Reads the whole image.
pub fn verify_image(img: &[u8]) -> Result<Header, String> {
    let header = parse_header(img)?;
    for t in &header.tables {
        let (a, b) = (t.offset as usize, (t.offset + t.bytes) as usize);
        if checksum(&img[a..b]) != t.checksum {
            return Err(format!(
                "checksum mismatch in table '{}' (corrupt file)",
                t.name
            ));
        }
    }
    let (a, b) = (
        header.provenance_offset as usize,
        (header.provenance_offset + header.provenance_bytes) as usize,
    );
    if img.get(a..b).map(checksum) != Some(header.provenance_checksum) {
        return Err("checksum mismatch in the provenance block (corrupt file)".into());
    }
    Ok(header)
}

/// A copy of a (verified) image with another provenance block: the provenance is the last thing
/// in a file, so the tables stay where they are and only the lengths and checksums change.
pub fn with_provenance(img: &[u8], provenance_json: &str) -> Result<Vec<u8>, String> {
    let header = verify_image(img)?;
    let at = header.provenance_offset as usize;
    if at + header.provenance_bytes as usize != img.len() {
        return Err("the provenance block is not at the end of the file".into());
    }
    let mut out = Vec::with_capacity(at + provenance_json.len());
    out.extend_from_slice(&img[..at]);
    out.extend_from_slice(provenance_json.as_bytes());
    let total = out.len() as u64;
    LE::write_u64(&mut out[16..], total);
    LE::write_u64(&mut out[80..], provenance_json.len() as u64);
    LE::write_u64(&mut out[88..], checksum(provenance_json.as_bytes()));
    let hsum = header_checksum(&out[..ALIGN]);
    LE::write_u64(&mut out[HEADER_CHECKSUM_AT..], hsum);
    Ok(out)
}

/// Checksum of table or provenance bytes (xxh3-64; it runs at memory speed).
pub fn checksum(bytes: &[u8]) -> u64 {
    xxh3_64(bytes)
}

/// Builds a complete weight-file image in memory. The buffer is `u64`-backed so that tables are
/// aligned for `i16`/`i32` views without copying.
pub fn build_image(
    game: &str,
    feature_set: &str,
    feature_set_version: u32,
    tables: &[(&str, &[u32], TableData)],
    provenance_json: &str,
) -> Result<Vec<u64>, String> {
    if tables.len() > MAX_TABLES {
        return Err(format!("{} tables (at most {MAX_TABLES})", tables.len()));
    }
    if game.len() >= GAME_BYTES || feature_set.len() >= NAME_BYTES {
        return Err("game or feature-set name too long".into());
    }
    let mut offsets = Vec::with_capacity(tables.len());
    let mut end = ALIGN;
    for (name, dims, data) in tables {
        if name.len() >= NAME_BYTES || name.is_empty() {
            return Err(format!("table name '{name}' must have 1 to 23 bytes"));
        }
        if dims.is_empty() || dims.len() > 4 {
            return Err(format!("table '{name}': 1 to 4 dimensions"));
        }
        let n: usize = dims.iter().map(|&d| d as usize).product();
        if n != data.len() {
            return Err(format!(
                "table '{name}': {} values for dimensions {dims:?}",
                data.len()
            ));
        }
        offsets.push(end);
        end = align_up(end + n * data.elem().size());
    }
    let prov_off = end;
    let total = prov_off + provenance_json.len();
    let mut words = vec![0u64; total.div_ceil(8)];
    let img: &mut [u8] = &mut bytemuck::cast_slice_mut(&mut words)[..total];
    img[..8].copy_from_slice(MAGIC);
    LE::write_u32(&mut img[8..], FORMAT_VERSION);
    LE::write_u32(&mut img[12..], ALIGN as u32);
    LE::write_u64(&mut img[16..], total as u64);
    put_padded(&mut img[24..24 + GAME_BYTES], game);
    put_padded(&mut img[40..40 + NAME_BYTES], feature_set);
    LE::write_u32(&mut img[64..], feature_set_version);
    LE::write_u32(&mut img[68..], tables.len() as u32);
    LE::write_u64(&mut img[72..], prov_off as u64);
    LE::write_u64(&mut img[80..], provenance_json.len() as u64);
    img[prov_off..].copy_from_slice(provenance_json.as_bytes());
    let prov_sum = checksum(&img[prov_off..]);
    LE::write_u64(&mut img[88..], prov_sum);
    for (i, ((name, dims, data), &off)) in tables.iter().zip(&offsets).enumerate() {
        let bytes = data.len() * data.elem().size();
        data.write_le(&mut img[off..off + bytes]);
        let sum = checksum(&img[off..off + bytes]);
        let e = &mut img[HEADER_FIXED + i * ENTRY_BYTES..HEADER_FIXED + (i + 1) * ENTRY_BYTES];
        put_padded(&mut e[..NAME_BYTES], name);
        e[24] = data.elem().code();
        e[25] = dims.len() as u8;
        for (d, &v) in dims.iter().enumerate() {
            LE::write_u32(&mut e[32 + 4 * d..], v);
        }
        LE::write_u64(&mut e[48..], off as u64);
        LE::write_u64(&mut e[56..], bytes as u64);
        LE::write_u64(&mut e[64..], sum);
    }
    let hsum = header_checksum(&img[..ALIGN]);
    LE::write_u64(&mut img[HEADER_CHECKSUM_AT..], hsum);
    Ok(words)
}

/// Writes bytes to `path` atomically: a temporary file in the same directory, fsync, rename, and
/// an fsync of the directory, so a reader never maps a half-written file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let name = path
        .file_name()
        .ok_or_else(|| format!("{}: not a file path", path.display()))?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let tmp = dir.join(format!(
        ".{}.tmp{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let err = |e: std::io::Error| format!("{}: {e}", tmp.display());
    let mut f = File::create(&tmp).map_err(err)?;
    f.write_all(bytes).map_err(err)?;
    f.sync_all().map_err(err)?;
    drop(f);
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("{}: {e}", path.display())
    })?;
    if let Ok(d) = File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// The bytes behind a `Weights`: a read-only map of a file, or an owned aligned buffer.
pub enum Backing {
    Mapped(Mmap),
    Owned(Vec<u64>, usize),
}

impl Backing {
    pub fn bytes(&self) -> &[u8] {
        match self {
            Backing::Mapped(m) => m,
            Backing::Owned(w, len) => &bytemuck::cast_slice(w)[..*len],
        }
    }
}

/// Maps a file read-only. The map is shared with every other process mapping the same file.
pub fn map_file(path: &Path) -> Result<Mmap, String> {
    let f = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    // SAFETY: the map is read-only, and weight files are replaced by rename (write_atomic), never
    // rewritten in place, so the mapped pages do not change under us. A file truncated by another
    // program while mapped would fault; that is the documented limit of mapping (FORMAT.md).
    unsafe { Mmap::map(&f) }.map_err(|e| format!("{}: cannot map: {e}", path.display()))
}
