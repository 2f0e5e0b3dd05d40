/** any text (a link) as a QR picture to share, PNG */
export async function qrPicture(text: string): Promise<Buffer> {
  // loaded on the first QR: a start does not need it
  const { default: QRCode } = await import("qrcode");
  return QRCode.toBuffer(text, { type: "png", errorCorrectionLevel: "M", margin: 2, width: 480 });
}
