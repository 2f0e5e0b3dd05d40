import QRCode from "qrcode";

// a QRIS-shaped payload (EMVCo merchant-presented mode): the tags a real one carries, with
// this sandbox as the merchant and the amount in tag 54. No bank app would pay it.

const tag = (id: string, value: string) => `${id}${String(value.length).padStart(2, "0")}${value}`;

/** CRC-16/CCITT-FALSE, as EMVCo's tag 63 */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, "utf8")) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

export function qrisString(orderId: string, amount: number): string {
  const body =
    tag("00", "01") +
    tag("01", "12") +
    tag("26", tag("00", "ID.CO.KIOS.SANDBOX") + tag("01", orderId.slice(0, 40))) +
    tag("52", "5999") +
    tag("53", "360") +
    tag("54", String(amount)) +
    tag("58", "ID") +
    tag("59", "KIOS SANDBOX") +
    tag("60", "JAKARTA") +
    "6304";
  return body + crc16(body);
}

export function qrPng(text: string): Promise<Buffer> {
  return QRCode.toBuffer(text, { type: "png", errorCorrectionLevel: "M", margin: 2, width: 320 });
}
