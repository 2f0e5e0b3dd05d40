import QRCode from "qrcode";

/** any text (a link) as a QR picture to share, PNG */
export function qrPicture(text: string): Promise<Buffer> {
  return QRCode.toBuffer(text, { type: "png", errorCorrectionLevel: "M", margin: 2, width: 480 });
}
