import { describe, expect, it } from 'vitest';
import { splitSentences, splitThai } from '../src/answers/sentences.js';

describe('Thai clause groups', () => {
  // [line, expected groups]: a space-separated run stays whole unless a boundary is confirmed.
  const table: [string, string, string[]][] = [
    [
      'each clause naming its own subject is a sentence; the clauses after its verb stay with it',
      'เงินที่ลูกค้าจ่ายผ่านพร้อมเพย์ ระบบไม่สามารถโอนคืนให้อัตโนมัติได้ ร้านต้องโอนคืนเองจากแอปธนาคาร แล้วกด บันทึกการคืนเงิน ในบิลนั้น',
      ['เงินที่ลูกค้าจ่ายผ่านพร้อมเพย์', 'ระบบไม่สามารถโอนคืนให้อัตโนมัติได้', 'ร้านต้องโอนคืนเองจากแอปธนาคาร แล้วกด บันทึกการคืนเงิน ในบิลนั้น'],
    ],
    [
      'a quoted button name or a short clause never ends a sentence',
      'ร้านต้องโอนคืนเองจากแอปธนาคาร แล้วกด บันทึกการคืนเงิน ในบิลนั้น เพื่อให้รายงานยอดขายถูกต้อง',
      ['ร้านต้องโอนคืนเองจากแอปธนาคาร แล้วกด บันทึกการคืนเงิน ในบิลนั้น เพื่อให้รายงานยอดขายถูกต้อง'],
    ],
    [
      'a condition starts a sentence and goes on into its consequence',
      'ส่วนต่างไม่เกิน 20 บาทจะแสดงเป็นสีเหลือง ถ้ามากกว่านั้นจะแสดงเป็นสีแดงและต้องใช้ PIN ผู้จัดการจึงจะปิดกะได้',
      ['ส่วนต่างไม่เกิน 20 บาทจะแสดงเป็นสีเหลือง', 'ถ้ามากกว่านั้นจะแสดงเป็นสีแดงและต้องใช้ PIN ผู้จัดการจึงจะปิดกะได้'],
    ],
    [
      'a clause that names its own subject before an auxiliary starts a sentence',
      'ลูกค้าสามารถคืนสินค้าได้ภายใน 30 วันหลังได้รับสินค้า สินค้าต้องอยู่ในสภาพเดิมและยังไม่ผ่านการใช้งาน',
      ['ลูกค้าสามารถคืนสินค้าได้ภายใน 30 วันหลังได้รับสินค้า', 'สินค้าต้องอยู่ในสภาพเดิมและยังไม่ผ่านการใช้งาน'],
    ],
    [
      'parallel statements are separate sentences',
      'การจัดส่งไปเชียงใหม่ใช้เวลา 2 วัน การจัดส่งไปภูเก็ตใช้เวลา 3 วัน',
      ['การจัดส่งไปเชียงใหม่ใช้เวลา 2 วัน', 'การจัดส่งไปภูเก็ตใช้เวลา 3 วัน'],
    ],
    [
      'a "when" clause after a short verb stays inside the sentence',
      'ใช้ นำเงินออก เมื่อหยิบเงินจากลิ้นชักไปใช้จ่ายในร้าน เช่น ซื้อน้ำแข็ง',
      ['ใช้ นำเงินออก เมื่อหยิบเงินจากลิ้นชักไปใช้จ่ายในร้าน เช่น ซื้อน้ำแข็ง'],
    ],
    [
      'a closing particle ends a sentence',
      'ขอบคุณที่ใช้บริการร้านของเรานะคะ ทางร้านกำลังตรวจสอบคำสั่งซื้อของคุณค่ะ',
      ['ขอบคุณที่ใช้บริการร้านของเรานะคะ', 'ทางร้านกำลังตรวจสอบคำสั่งซื้อของคุณค่ะ'],
    ],
    ['a line break always ends one', 'บรรทัดแรกของข้อความยาวพอสมควร\nบรรทัดที่สองของข้อความ', ['บรรทัดแรกของข้อความยาวพอสมควร', 'บรรทัดที่สองของข้อความ']],
  ];
  it.each(table)('%s', (_, line, groups) => {
    expect(splitThai(line)).toEqual(groups);
  });

  it('splits at every space only when asked to (the measured alternative)', () => {
    expect(splitThai('ร้านต้องโอนคืนเองจากแอปธนาคาร แล้วกด บันทึกการคืนเงิน ในบิลนั้น', 'every-space')).toEqual([
      'ร้านต้องโอนคืนเองจากแอปธนาคาร',
      'แล้วกด บันทึกการคืนเงิน ในบิลนั้น',
    ]);
    expect(splitThai('การจัดส่งไปเชียงใหม่ใช้เวลา 2 วัน การจัดส่งไปภูเก็ตใช้เวลา 3 วัน', 'whole-run')).toHaveLength(1);
  });
});

describe('sentence ends', () => {
  const table: [string, string, string[]][] = [
    ['Thai era abbreviations', 'ภาพยนตร์ออกฉายในปี พ.ศ. 2540 และได้รับรางวัลหลายรางวัล', ['ภาพยนตร์ออกฉายในปี พ.ศ. 2540 และได้รับรางวัลหลายรางวัล']],
    ['Thai month abbreviations', 'ราคานี้ใช้ตั้งแต่วันที่ 1 ต.ค. 2567 เป็นต้นไป', ['ราคานี้ใช้ตั้งแต่วันที่ 1 ต.ค. 2567 เป็นต้นไป']],
    ['Christian era', 'ก่อตั้งเมื่อ ค.ศ. 1998 ที่กรุงเทพฯ', ['ก่อตั้งเมื่อ ค.ศ. 1998 ที่กรุงเทพฯ']],
    ['English initials', 'Franklin D. Roosevelt was president. He won four times.', ['Franklin D. Roosevelt was president.', 'He won four times.']],
    ['a footnote in parentheses', 'It was founded in 1998.(5) The company grew.', ['It was founded in 1998.(5) The company grew.']],
    ['ordinary English sentences', 'Refunds take 7 days. Cards are refunded first.', ['Refunds take 7 days.', 'Cards are refunded first.']],
  ];
  it.each(table)('%s', (_, text, sentences) => {
    expect(splitSentences(text)).toEqual(sentences);
  });
});
