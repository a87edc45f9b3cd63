//! A ticket's QR code as a PNG, for mail: mail clients show an inline PNG
//! where few show SVG. Greyscale, six pixels a module with the quiet zone
//! scanners want, written by hand (a PNG is a signature and three chunks;
//! flate2, already here, deflates the pixels and sums the CRCs).

use std::io::Write;

/// Pixels per QR module.
const SCALE: usize = 6;
/// Light modules around the code (the standard's quiet zone).
const QUIET: usize = 4;

/// The PNG of a QR code carrying `token`.
pub fn qr_png(token: &str) -> Option<Vec<u8>> {
    let code = qrcode::QrCode::new(token.as_bytes()).ok()?;
    let modules = code.width();
    let colors = code.to_colors();
    let side = (modules + 2 * QUIET) * SCALE;
    let dark = |x: usize, y: usize| {
        let (mx, my) = (x / SCALE, y / SCALE);
        (QUIET..QUIET + modules).contains(&mx)
            && (QUIET..QUIET + modules).contains(&my)
            && colors[(my - QUIET) * modules + (mx - QUIET)] == qrcode::Color::Dark
    };
    let mut pixels = Vec::with_capacity((side + 1) * side);
    for y in 0..side {
        pixels.push(0); // each row: filter type 0 (none)
        pixels.extend((0..side).map(|x| if dark(x, y) { 0 } else { 255 }));
    }
    let mut deflate = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    deflate.write_all(&pixels).ok()?;
    let data = deflate.finish().ok()?;
    let side = u32::try_from(side).ok()?;
    let mut header = Vec::with_capacity(13);
    header.extend(side.to_be_bytes());
    header.extend(side.to_be_bytes());
    // 8-bit greyscale, deflate, standard filters, no interlace.
    header.extend([8, 0, 0, 0, 0]);
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    chunk(&mut png, b"IHDR", &header);
    chunk(&mut png, b"IDAT", &data);
    chunk(&mut png, b"IEND", &[]);
    Some(png)
}

fn chunk(png: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    let mut crc = flate2::Crc::new();
    crc.update(kind);
    crc.update(data);
    png.extend((data.len() as u32).to_be_bytes());
    png.extend(kind);
    png.extend(data);
    png.extend(crc.sum().to_be_bytes());
}

/// A ticket's token as a QR code (SVG, for the booking page), with its
/// quiet zone.
pub fn qr_svg(token: &str) -> Option<String> {
    let code = qrcode::QrCode::new(token.as_bytes()).ok()?;
    Some(
        code.render::<qrcode::render::svg::Color>()
            .min_dimensions(220, 220)
            .quiet_zone(true)
            .build(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn a_png_of_the_code_with_its_quiet_zone() {
        let png = qr_png("holdfast-ticket-token").unwrap();
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
        let side = u32::from_be_bytes(png[16..20].try_into().unwrap()) as usize;
        let modules = qrcode::QrCode::new(b"holdfast-ticket-token")
            .unwrap()
            .width();
        assert_eq!(side, (modules + 2 * QUIET) * SCALE);
        // The pixels inflate to one filter byte and `side` pixels a row; the
        // corner is quiet (light), the finder pattern's corner dark.
        let length = u32::from_be_bytes(png[33..37].try_into().unwrap()) as usize;
        let mut pixels = Vec::new();
        flate2::read::ZlibDecoder::new(&png[41..41 + length])
            .read_to_end(&mut pixels)
            .unwrap();
        assert_eq!(pixels.len(), (side + 1) * side);
        assert_eq!(pixels[1], 255);
        let finder = QUIET * SCALE * (side + 1) + 1 + QUIET * SCALE;
        assert_eq!(pixels[finder], 0);
        assert!(png.ends_with(&[0xAE, 0x42, 0x60, 0x82]), "IEND's CRC");
    }
}
