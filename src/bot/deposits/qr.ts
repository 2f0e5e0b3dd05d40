import QRCode from "qrcode";

/** the QR a QRIS app scans, as a PNG: drawn by kios from the gateway's qr_string, whatever the gateway */
export function qrPng(qrString: string): Promise<Buffer> {
  return QRCode.toBuffer(qrString, {
    type: "png",
    errorCorrectionLevel: "M",
    margin: 2,
    width: 480,
  });
}
