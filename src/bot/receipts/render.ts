import { box, logoNode, type PictureNode, picturePng } from "../ui/pictures/layout.ts";
import type { Receipt } from "./receipt.ts";

// a receipt as a PNG (pictures/layout.ts): about 30 ms and 30 KB each.

const WIDTH = 480;

const line = (left: string, right: string, bold = false): PictureNode =>
  box({ justifyContent: "space-between", fontSize: 18, fontWeight: bold ? 700 : 400, gap: 16 }, [
    box({ color: "#555", flexShrink: 0 }, left),
    box({ textAlign: "right", flexWrap: "wrap", justifyContent: "flex-end" }, right),
  ]);
const rule = () => box({ borderTop: "2px dashed #bbb", margin: "10px 0" }, "");

function tree(r: Receipt): PictureNode {
  const children: PictureNode[] = [
    ...(r.logo ? [logoNode(r.logo)] : []),
    box({ fontSize: 26, fontWeight: 700, justifyContent: "center" }, r.shop),
    box({ fontSize: 16, color: "#666", justifyContent: "center", marginTop: 2 }, r.title),
    box({ fontSize: 16, color: "#666", justifyContent: "center" }, r.when),
    rule(),
    ...r.rows.map(([l, v]) => line(l, v)),
  ];
  if (r.token) {
    children.push(
      box(
        {
          fontSize: 26,
          fontWeight: 700,
          justifyContent: "center",
          background: "#f3f6f4",
          borderRadius: 8,
          padding: "10px 0",
          marginTop: 8,
          letterSpacing: 1,
        },
        r.token,
      ),
    );
  }
  if (r.periods && r.periods.length > 0) {
    children.push(rule(), ...r.periods.map(([l, v]) => line(l, v)));
  }
  children.push(rule(), line(r.total[0], r.total[1], true), rule());
  children.push(box({ fontSize: 15, color: "#666", justifyContent: "center" }, r.footer));
  return box(
    {
      flexDirection: "column",
      width: WIDTH,
      padding: 28,
      gap: 6,
      background: "#fff",
      fontFamily: "Inter",
      color: "#111",
    },
    children,
  );
}

/** the receipt as a PNG */
export function receiptPng(r: Receipt): Promise<Buffer> {
  return picturePng(tree(r), WIDTH);
}
