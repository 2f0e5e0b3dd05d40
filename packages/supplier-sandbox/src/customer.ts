// what a destination must look like per product type (the supplier's document leaves it to the sandbox).

const PHONE = /^(08|628)\d+$/;

/** prepaid: a phone number (10–15 digits, 08… or 628…) or a PLN meter / customer id (11–12 digits) */
export function validPrepaidDestination(customerNo: string): boolean {
  if (!/^\d+$/.test(customerNo)) return false;
  const phone = PHONE.test(customerNo) && customerNo.length >= 10 && customerNo.length <= 15;
  const meter = customerNo.length >= 11 && customerNo.length <= 12;
  return phone || meter;
}

/** game: any account id with at least 4 digits, e.g. "123456789" or "123456789(2001)" */
export function validGameDestination(customerNo: string): boolean {
  const control = [...customerNo].some((ch) => ch.charCodeAt(0) < 0x20 || ch === "\x7f");
  if (customerNo.length > 64 || control) return false;
  return (customerNo.match(/\d/g)?.length ?? 0) >= 4;
}

/** bills: a customer, contract, VA or tax object number of 6–20 digits */
export function validBillCustomer(customerNo: string): boolean {
  return /^\d{6,20}$/.test(customerNo);
}
