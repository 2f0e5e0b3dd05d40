/** the QR a QRIS app scans, as a PNG: drawn by kios from the gateway's qr_string, whatever the gateway */
export async function qrPng(qrString: string): Promise<Buffer> {
  // loaded on the first QR: a start does not need it
  const { default: QRCode } = await import("qrcode");
  return QRCode.toBuffer(qrString, {
    type: "png",
    errorCorrectionLevel: "M",
    margin: 2,
    width: 480,
  });
}
