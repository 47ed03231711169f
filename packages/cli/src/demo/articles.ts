// Sample help-center articles (English and Thai) for the "Siam Mart" demo tenant.
export interface DemoArticle { slug: string; title: string; contentMd: string; locale: 'en' | 'th' }

export const demoArticles: DemoArticle[] = [
  {
    slug: 'create-an-account',
    title: 'Creating a Siam Mart account',
    locale: 'en',
    contentMd: `# Creating a Siam Mart account

A Siam Mart account lets you check out faster, track every order in one place, collect Siam Mart Points and manage returns. Signing up is free and takes about two minutes.

## Sign up with your phone number or email

1. Open the Siam Mart app or go to siammart.example and tap **Sign up**.
2. Enter a Thai mobile number (10 digits, starting with 06, 08 or 09) or an email address.
3. Enter the 6-digit one-time password (OTP) we send you. The code is valid for 5 minutes.
4. Create a password of at least 8 characters that includes at least one letter and one number.
5. Add your name and accept the Terms of Service and Privacy Policy.

You can also sign up with LINE, Google or Apple. If you use a social login, we still ask you to verify a mobile number before your first order.

## Who can open an account

- You must be at least 18 years old, or have consent from a parent or guardian.
- One mobile number can be linked to only one account.
- Business customers who need tax invoices can add company details later under **Account > Tax information**.

## After you sign up

New members receive 50 Siam Mart Points (worth 5 THB) within 24 hours of verifying their phone number. We recommend turning on two-factor authentication right away to protect your account.

If the OTP does not arrive, wait 60 seconds and tap **Resend code**. You can request up to 5 codes per hour; after that, please try again later or contact support.
`,
  },
  {
    slug: 'reset-your-password',
    title: 'Resetting your password',
    locale: 'en',
    contentMd: `# Resetting your password

If you have forgotten your password or think someone else knows it, you can reset it yourself in a few steps. You do not need to contact support.

## Reset from the login screen

1. On the login screen, tap **Forgot password?**
2. Enter the mobile number or email address linked to your account.
3. We send a reset link by email or a 6-digit OTP by SMS. The email link expires after 30 minutes and the SMS code after 5 minutes.
4. Choose a new password and sign in again.

Your new password must be at least 8 characters long, contain at least one letter and one number, and must not match any of your last 3 passwords. For security, resetting your password signs you out on all other devices.

## If your account is locked

After 5 incorrect password attempts in a row, your account is locked for 15 minutes. You can wait for the lock to clear, or reset your password straight away, which unlocks the account immediately.

## Did not receive the email or SMS?

- Check your spam or junk folder and search for mail from no-reply@siammart.example.
- Make sure you entered the same number or email you signed up with.
- SMS codes can take up to 2 minutes during busy periods. You can request a new code after 60 seconds.
- If you no longer have access to your phone number or email, contact support with your full name, the email or phone used on the account and the number of a recent order. Identity checks take up to 2 business days.
`,
  },
  {
    slug: 'two-factor-authentication',
    title: 'Setting up two-factor authentication (2FA)',
    locale: 'en',
    contentMd: `# Setting up two-factor authentication (2FA)

Two-factor authentication adds a second step when you sign in: after your password, you also enter a code that only you can get. Even if someone learns your password, they cannot access your account without that code.

## Choose your method

| Method | How you get the code | Recommended for |
|---|---|---|
| Authenticator app | 6-digit code in Google Authenticator, Microsoft Authenticator or a similar app, refreshed every 30 seconds | Most customers and all merchants |
| SMS OTP | 6-digit code sent to your verified mobile number, valid for 5 minutes | Customers who prefer not to install an app |

## Turn on 2FA

1. Go to **Account > Security > Two-factor authentication**.
2. Select **Authenticator app** or **SMS**.
3. For an app, scan the QR code and enter the 6-digit code shown in the app to confirm.
4. Save your 10 backup codes somewhere safe. Each backup code works once if you lose your phone.

2FA is mandatory for merchant accounts and for withdrawing money from Siam Mart Wallet. Once it is on, we also ask for a code when you change your password, email or mobile number.

## Lost your phone?

Sign in with one of your backup codes, then set up 2FA again on your new device. If you have no backup codes left, contact support. For your safety, removing 2FA through support requires an identity check with a photo of your Thai ID card or passport and takes up to 3 business days.
`,
  },
  {
    slug: 'shipping-times-and-costs',
    title: 'Shipping times and costs',
    locale: 'en',
    contentMd: `# Shipping times and costs

Siam Mart delivers to every province in Thailand. Delivery time and fee depend on where you live and the shipping option you choose at checkout. Business days are Monday to Saturday, excluding public holidays.

## Delivery zones and rates

| Zone | Standard delivery | Standard fee | Free shipping from |
|---|---|---|---|
| Bangkok and vicinity (Nonthaburi, Pathum Thani, Samut Prakan) | 1–2 business days | 40 THB | 500 THB |
| Other provinces (e.g. Chiang Mai, Khon Kaen, Phuket) | 2–4 business days | 60 THB | 1,000 THB |
| Remote areas and islands (e.g. Ko Samui, Ko Pha-ngan, Ko Tao, parts of Mae Hong Son) | 4–7 business days | 100 THB | Not available |

The free shipping threshold is based on the order total after discounts, excluding the shipping fee.

## Faster options

- **Same-day delivery** (Bangkok only): 120 THB. Order and pay before 12:00; orders placed after 12:00 arrive the next day.
- **Express** (all provinces except remote areas): 1–2 business days for 90 THB.

## Things that affect delivery time

- Orders paid after 15:00 are processed the next business day.
- Items marked "Ships from overseas" take 7–14 business days.
- Large items over 20 kg, such as furniture or washing machines, are delivered by our bulky-goods partner for a flat fee of 300 THB nationwide. We will call you to book a delivery slot.
- During big sales such as 11.11 and 12.12, please allow 1–2 extra business days.
- Cash on delivery adds a 30 THB fee on top of the shipping fee.
`,
  },
  {
    slug: 'track-your-order',
    title: 'Tracking your order',
    locale: 'en',
    contentMd: `# Tracking your order

You can follow your parcel from our warehouse to your door in the Siam Mart app, on the website, or through the Merchant API if you sell on Siam Mart.

## Where to find your tracking number

Go to **Account > My orders** and open the order. Once the status changes to **Shipped**, a tracking number appears under the delivery details, and we also send it to you by SMS and email. Tracking usually starts updating within 24 hours of shipping. Siam Mart numbers follow fixed formats:

\`\`\`text
Order number:    SM-240315-004217   (SM-YYMMDD-6 digits)
Tracking number: SMX1234567890TH    (SMX + 10 digits + TH)
Return number:   RT-240322-000381   (RT-YYMMDD-6 digits)
\`\`\`

## Tracking statuses

- **Order placed**: payment confirmed, waiting to be packed.
- **Packed**: your items are ready for courier pickup.
- **Shipped**: the parcel has left our warehouse.
- **Out for delivery**: the courier will deliver today, usually between 09:00 and 20:00.
- **Delivered**: the parcel was handed over or left at your chosen safe place.

If tracking has not updated for 3 business days, contact support and we will open an investigation with the courier.

## For merchants: tracking via the API

Merchants can fetch the same information from the Merchant API (limit: 600 requests per minute per API key):

\`\`\`bash
curl https://api.siammart.example/v1/orders/SM-240315-004217/tracking \\
  -H "Authorization: Bearer $SIAMMART_API_KEY"
\`\`\`

\`\`\`json
{
  "order_id": "SM-240315-004217",
  "tracking_number": "SMX1234567890TH",
  "status": "out_for_delivery",
  "estimated_delivery": "2024-03-17"
}
\`\`\`
`,
  },
  {
    slug: 'returns-and-refunds',
    title: 'Returns and refunds policy',
    locale: 'en',
    contentMd: `# Returns and refunds policy

Changed your mind, or received something that does not suit you? Most items bought on Siam Mart can be returned within 14 days of delivery.

## What can be returned

An item can be returned if:

- you request the return within **14 days** of the delivery date shown in your order;
- the item is **unused** and in its original condition, with all tags, accessories, manuals and free gifts;
- the original packaging is included and not badly damaged.

These items cannot be returned unless they arrive damaged or faulty: underwear and swimwear, opened cosmetics and personal care products, food and drinks, digital codes and gift cards, and anything marked "Non-returnable" on the product page.

## How to return an item

1. Go to **My orders**, choose the order and tap **Return / Refund**.
2. Select the items and a reason. Add photos if the item is faulty or wrong.
3. Drop the parcel at a Siam Mart partner point or book a free pickup. You will get a return number starting with RT-.

Return shipping is free if the item is faulty, damaged or not what you ordered. For change-of-mind returns, a 50 THB return shipping fee is deducted from your refund.

## When you get your money back

We inspect returned items within 3 business days of receiving them. Once approved, we refund to your **original payment method within 7 business days**:

- Credit/debit card: back to the same card; your bank may show it on the next statement.
- PromptPay: back to the PromptPay account that paid.
- Cash on delivery: to a bank account or PromptPay ID you give us, or as Siam Mart Wallet credit.
- Gift card: back to your gift card balance.

Original shipping fees are refunded only when the whole order is returned because of our mistake.
`,
  },
  {
    slug: 'cancel-an-order',
    title: 'Cancelling an order',
    locale: 'en',
    contentMd: `# Cancelling an order

You can cancel an order yourself as long as it has not been packed yet. What happens next depends on the order status.

## When can I cancel?

| Order status | Can you cancel? | How |
|---|---|---|
| Awaiting payment | Yes | Tap **Cancel order**. Unpaid orders are also cancelled automatically after 1 hour. |
| Order placed (paid) | Yes, instantly | Tap **Cancel order** in **My orders**. |
| Packed | By request only | Tap **Request cancellation**. The seller has 24 hours to accept or decline. |
| Shipped or Delivered | No | Request a return after delivery instead. |

## Refunds for cancelled orders

If you already paid, the money goes back to your original payment method within 7 business days:

- PromptPay and Siam Mart Wallet: usually within 1 business day.
- Credit or debit card: the charge is reversed by your bank, which can take up to 7 business days.
- Siam Mart Points and gift card balance used on the order are restored immediately.

Vouchers are returned to your account if they are still valid; expired vouchers cannot be restored.

## Cancelling a cash on delivery order

COD orders can be cancelled free of charge before they are shipped. Please do not simply refuse a COD parcel at the door: if an account refuses 2 COD deliveries within 90 days, cash on delivery is disabled for that account for 6 months.
`,
  },
  {
    slug: 'payment-methods',
    title: 'Payment methods',
    locale: 'en',
    contentMd: `# Payment methods

Siam Mart accepts several ways to pay. All prices are in Thai baht (THB) and include 7% VAT.

## Accepted methods

| Method | Fee | Limits | Payment confirmed |
|---|---|---|---|
| PromptPay QR | Free | Your bank's daily transfer limit | Usually within 1–5 minutes |
| Credit / debit card (Visa, Mastercard, JCB, UnionPay) | Free | Your card limit | Instantly |
| Cash on delivery (COD) | 30 THB | Orders up to 5,000 THB | On delivery |
| Siam Mart Wallet | Free | Balance up to 100,000 THB | Instantly |
| Gift card | Free | Up to 5 gift cards per order | Instantly |

## PromptPay

Choose **PromptPay** at checkout and scan the QR code with any Thai banking app. The QR code is valid for 15 minutes and already contains the exact amount, so do not change it. If it expires, tap **Generate new QR**. Unpaid orders are cancelled automatically after 1 hour.

## Credit and debit cards

We accept Visa, Mastercard, JCB and UnionPay cards issued in Thailand or abroad. Card payments use 3-D Secure, so your bank may ask for an OTP. Saved cards are stored as a token; we never keep your full card number. For orders of 3,000 THB or more, you can choose 0% installments over 3, 6 or 10 months with participating Thai bank credit cards.

## Cash on delivery

Pay the courier in cash when your parcel arrives. COD is not available in remote areas, for pre-orders, for gift card purchases or for orders above 5,000 THB. Please prepare the exact amount, as couriers may not carry change.
`,
  },
  {
    slug: 'warranty-claims',
    title: 'Making a warranty claim',
    locale: 'en',
    contentMd: `# Making a warranty claim

Many products on Siam Mart come with a manufacturer or Siam Mart warranty. If an item stops working properly after the 14-day return window, you can make a warranty claim.

## Warranty periods

| Product category | Standard warranty |
|---|---|
| Smartphones, tablets and laptops | 12 months (manufacturer) |
| Large appliances (fridges, washing machines, air conditioners) | 24 months; compressor or motor 5 years |
| Small appliances and kitchen electrics | 12 months |
| Accessories (cables, chargers, cases) | 6 months |
| Siam Basics (Siam Mart own brand) | 12 months |

The exact period is shown on the product page and in your order confirmation. The warranty starts on the delivery date.

## What is not covered

- Damage from drops, liquid, power surges or use that does not follow the manual
- Normal wear and tear, including scratches and cosmetic marks
- Items opened or repaired by anyone other than an authorised service centre
- Consumables such as filters, bulbs and batteries, unless they were faulty on arrival

## How to make a claim

1. Go to **My orders**, open the order and tap **Warranty claim**.
2. Describe the problem and upload photos or a short video (up to 50 MB).
3. We will tell you whether to send the item to us with a free pickup or take it to an authorised service centre near you.

We inspect the item within 7–14 business days and then repair it, replace it, or, if neither is possible, refund the purchase price to your original payment method or Siam Mart Wallet.
`,
  },
  {
    slug: 'contact-support',
    title: 'Contacting customer support',
    locale: 'en',
    contentMd: `# Contacting customer support

Our support team speaks Thai and English. Before contacting us, try searching the Help Centre: most questions about orders, returns and payments are answered there.

## Support channels and hours

| Channel | Where | Hours | Typical response |
|---|---|---|---|
| Live chat | App and website, **Help > Chat with us** | Every day, 08:00–22:00 | Under 3 minutes |
| LINE Official Account | @siammart | Every day, 08:00–22:00 | Under 15 minutes |
| Phone | 02-555-0123 | Monday–Saturday, 09:00–18:00 | Under 5 minutes |
| Email | support@siammart.example | Any time (answered during business hours) | Within 24 hours |

All times are Thailand time (UTC+7). The phone line is closed on Sundays and public holidays.

## Have this ready

- Your order number (for example SM-240315-004217)
- The email or mobile number on your account
- Photos or screenshots if something is damaged, wrong or showing an error

We will never ask for your password, full card number or OTP code. If someone asks for these while claiming to be Siam Mart, do not share them and report it to security@siammart.example.

## Complaints and escalation

If you are not happy with an answer, reply in the same chat or email thread and ask for escalation. A team lead will review your case and reply within 2 business days.
`,
  },
  {
    slug: 'gift-cards',
    title: 'Siam Mart gift cards',
    locale: 'en',
    contentMd: `# Siam Mart gift cards

A Siam Mart gift card lets the recipient choose anything sold on Siam Mart. Gift cards come in fixed values of 500, 1,000, 2,000 and 5,000 THB.

## Buying a gift card

- **E-gift cards** are sent by email or LINE within 10 minutes of payment, with your personal message.
- **Physical cards** are shipped free in a gift envelope within 2–4 business days.

You can pay for gift cards with PromptPay, credit or debit card, or Siam Mart Wallet. Cash on delivery is not available, and gift cards cannot be used to buy other gift cards.

## Redeeming a gift card

Each card has a 16-character code in the format SMGC-XXXX-XXXX-XXXX. Go to **Account > Gift cards > Add gift card** and enter the code, or enter it at checkout. The value is added to your gift card balance, and you can use up to 5 gift cards on a single order. Any remaining balance stays in your account for your next purchase.

## Rules to know

- Gift cards are valid for 3 years from the date of purchase.
- They cannot be exchanged for cash, returned or refunded, except where required by law.
- If you return an item paid for with a gift card, the amount goes back to your gift card balance.
- A code that has already been redeemed by someone else cannot be replaced, so keep it as safe as cash.
`,
  },
  {
    slug: 'th-refund-policy',
    title: 'นโยบายการคืนสินค้าและการคืนเงิน',
    locale: 'th',
    contentMd: `# นโยบายการคืนสินค้าและการคืนเงิน

หากได้รับสินค้าแล้วไม่ตรงใจหรือเปลี่ยนใจภายหลัง คุณสามารถขอคืนสินค้าที่ซื้อจาก Siam Mart ได้ภายใน 14 วันนับจากวันที่ได้รับสินค้า โดยมีเงื่อนไขดังนี้

## เงื่อนไขการคืนสินค้า

- แจ้งคืนภายใน **14 วัน** นับจากวันที่จัดส่งสำเร็จตามที่แสดงในคำสั่งซื้อ
- สินค้าต้อง**ยังไม่ผ่านการใช้งาน** อยู่ในสภาพเดิม ป้ายและสติกเกอร์ยังติดอยู่ครบ
- ส่งคืนพร้อมกล่อง บรรจุภัณฑ์ อุปกรณ์เสริม คู่มือ และของแถมทั้งหมด

สินค้าบางประเภทไม่รับคืน ยกเว้นกรณีชำรุดหรือส่งผิด ได้แก่ ชุดชั้นในและชุดว่ายน้ำ เครื่องสำอางและผลิตภัณฑ์ดูแลผิวที่เปิดใช้แล้ว อาหารและเครื่องดื่ม รหัสดิจิทัลและบัตรของขวัญ รวมถึงสินค้าที่ระบุว่า "ไม่รับคืน" ในหน้าสินค้า

## ขั้นตอนการขอคืนสินค้า

1. ไปที่ **คำสั่งซื้อของฉัน** เลือกคำสั่งซื้อ แล้วกด **คืนสินค้า/คืนเงิน**
2. เลือกสินค้าที่ต้องการคืนและระบุเหตุผล หากสินค้าชำรุดหรือส่งผิด กรุณาแนบรูปถ่ายประกอบ
3. นำพัสดุไปส่งที่จุดรับพัสดุของ Siam Mart หรือนัดให้ขนส่งเข้ารับฟรีถึงบ้าน ระบบจะออกหมายเลขคืนสินค้าที่ขึ้นต้นด้วย RT-

กรณีสินค้าชำรุด เสียหาย หรือส่งผิดรายการ เราออกค่าส่งคืนให้ทั้งหมด แต่หากคืนเพราะเปลี่ยนใจ จะหักค่าส่งคืน 50 บาทจากยอดเงินที่ได้รับคืน

## ระยะเวลาการคืนเงิน

เมื่อคลังสินค้าได้รับพัสดุแล้ว เราจะตรวจสอบสภาพสินค้าภายใน 3 วันทำการ หากผ่านการตรวจสอบ จะคืนเงิน**เข้าช่องทางเดิมที่คุณใช้ชำระภายใน 7 วันทำการ**

| ช่องทางที่ชำระ | ช่องทางที่ได้รับเงินคืน |
|---|---|
| บัตรเครดิต/เดบิต | บัตรใบเดิม (อาจแสดงในรอบบิลถัดไป) |
| พร้อมเพย์ | บัญชีพร้อมเพย์ที่ใช้ชำระ |
| เก็บเงินปลายทาง | บัญชีธนาคารหรือพร้อมเพย์ที่คุณแจ้ง หรือเครดิตใน Siam Mart Wallet |
| บัตรของขวัญ | ยอดคงเหลือบัตรของขวัญในบัญชี |

ค่าจัดส่งเดิมจะได้รับคืนเฉพาะกรณีที่คืนสินค้าทั้งคำสั่งซื้อเนื่องจากความผิดพลาดของเรา
`,
  },
  {
    slug: 'th-promptpay-payment',
    title: 'การชำระเงินผ่านพร้อมเพย์ (PromptPay)',
    locale: 'th',
    contentMd: `# การชำระเงินผ่านพร้อมเพย์ (PromptPay)

พร้อมเพย์เป็นช่องทางชำระเงินที่สะดวก รวดเร็ว และไม่มีค่าธรรมเนียม ใช้ได้กับแอปธนาคารทุกธนาคารในประเทศไทย

## วิธีชำระเงิน

1. ในหน้าชำระเงิน เลือก **พร้อมเพย์ (QR Code)** แล้วกด **สั่งซื้อ**
2. ระบบจะแสดง QR Code พร้อมยอดเงินที่ต้องชำระ กด **บันทึกรูป QR** หรือใช้อีกเครื่องสแกนก็ได้
3. เปิดแอปธนาคาร เลือกสแกนจ่าย แล้วเลือกรูป QR ที่บันทึกไว้
4. ตรวจสอบว่าชื่อผู้รับเงินคือ **บริษัท สยามมาร์ท จำกัด** และยอดเงินตรงกับคำสั่งซื้อ จากนั้นกดยืนยันการโอน

QR Code แต่ละอันใช้ได้ **15 นาที** และผูกกับยอดเงินของคำสั่งซื้อนั้นเท่านั้น กรุณาอย่าแก้ไขยอดเงินในแอปธนาคาร หาก QR หมดอายุ สามารถกด **สร้าง QR ใหม่** ได้ที่หน้าคำสั่งซื้อ ทั้งนี้คำสั่งซื้อที่ไม่ได้ชำระเงินภายใน 1 ชั่วโมงจะถูกยกเลิกอัตโนมัติ

## หลังโอนเงินแล้ว

โดยปกติระบบจะยืนยันการชำระเงินภายใน 1–5 นาที และสถานะคำสั่งซื้อจะเปลี่ยนเป็น **ชำระเงินแล้ว** โดยอัตโนมัติ คุณไม่จำเป็นต้องส่งสลิปให้เรา

## โอนแล้วแต่สถานะยังไม่เปลี่ยน

- รอประมาณ 30 นาที เพราะบางครั้งข้อมูลจากธนาคารอาจมาถึงล่าช้า
- ตรวจสอบว่ายอดที่โอนตรงกับยอดในคำสั่งซื้อทุกสตางค์
- หากเกิน 30 นาทีแล้วสถานะยังไม่อัปเดต ติดต่อเราทางแชตหรือ LINE @siammart พร้อมแนบสลิปและหมายเลขคำสั่งซื้อ

หากคุณโอนเงินเข้ามาหลังจากคำสั่งซื้อถูกยกเลิกไปแล้ว เราจะคืนเงินเข้าบัญชีพร้อมเพย์ที่ใช้โอนภายใน 7 วันทำการ
`,
  },
  {
    slug: 'th-tax-invoice',
    title: 'การขอใบกำกับภาษีเต็มรูป',
    locale: 'th',
    contentMd: `# การขอใบกำกับภาษีเต็มรูป

ลูกค้านิติบุคคลหรือผู้ประกอบการที่จดทะเบียนภาษีมูลค่าเพิ่ม สามารถขอใบกำกับภาษีเต็มรูปเพื่อนำไปใช้เป็นภาษีซื้อได้ ราคาสินค้าบน Siam Mart ทุกชิ้นรวมภาษีมูลค่าเพิ่ม 7% แล้ว

## ข้อมูลที่ต้องใช้

- ชื่อบริษัทหรือชื่อผู้เสียภาษีตามที่จดทะเบียนไว้
- เลขประจำตัวผู้เสียภาษี 13 หลัก
- ที่อยู่ตาม ภ.พ.20 และระบุว่าเป็นสำนักงานใหญ่หรือสาขา (เลขที่สาขา 5 หลัก เช่น 00001)
- อีเมลสำหรับรับใบกำกับภาษีอิเล็กทรอนิกส์

## วิธีขอใบกำกับภาษี

ติ๊กช่อง **ต้องการใบกำกับภาษีเต็มรูป** ในหน้าชำระเงิน แล้วเลือกข้อมูลผู้เสียภาษีที่บันทึกไว้หรือกรอกข้อมูลใหม่ แนะนำให้บันทึกข้อมูลไว้ที่ **บัญชีของฉัน > ข้อมูลภาษี** เพื่อความสะดวกในการสั่งซื้อครั้งต่อไป

หากลืมขอตอนสั่งซื้อ สามารถขอย้อนหลังได้ที่หน้ารายละเอียดคำสั่งซื้อ ภายใน 7 วันนับจากวันที่ได้รับสินค้า และต้องอยู่ภายในเดือนเดียวกับที่ชำระเงิน

## ระยะเวลาจัดส่งและการแก้ไข

| รายการ | ระยะเวลา |
|---|---|
| ใบกำกับภาษีอิเล็กทรอนิกส์ (e-Tax Invoice) ทางอีเมล | ภายใน 3 วันทำการหลังจัดส่งสำเร็จ |
| ใบกำกับภาษีฉบับกระดาษ (ส่งทางไปรษณีย์ฟรี) | ภายใน 7 วันทำการหลังจัดส่งสำเร็จ |
| แก้ไขใบกำกับภาษีที่ออกแล้ว | ภายใน 5 วันทำการหลังได้รับคำขอ |

หากข้อมูลในใบกำกับภาษีไม่ถูกต้อง เช่น ชื่อบริษัทหรือเลขประจำตัวผู้เสียภาษีผิด กรุณาแจ้งภายในเดือนเดียวกับที่ออกใบกำกับภาษี เราจะยกเลิกฉบับเดิมและออกฉบับใหม่ให้ ส่วนกรณีคืนสินค้า ระบบจะออกใบลดหนี้ให้โดยอัตโนมัติ
`,
  },
  {
    slug: 'th-change-delivery-address',
    title: 'การเปลี่ยนที่อยู่จัดส่ง',
    locale: 'th',
    contentMd: `# การเปลี่ยนที่อยู่จัดส่ง

หากกรอกที่อยู่ผิดหรืออยากให้ส่งไปที่อื่น คุณแก้ไขเองได้ตราบใดที่สินค้ายังไม่ถูกแพ็ก หลังจากนั้นจะมีเงื่อนไขเพิ่มเติมตามสถานะคำสั่งซื้อ

## เปลี่ยนที่อยู่ได้เมื่อไร

| สถานะคำสั่งซื้อ | เปลี่ยนที่อยู่ได้หรือไม่ |
|---|---|
| รอชำระเงิน / สั่งซื้อแล้ว | ได้ แก้ไขเองได้ทันที ไม่มีค่าใช้จ่าย |
| แพ็กสินค้าแล้ว | ต้องติดต่อฝ่ายบริการลูกค้า และอาจเปลี่ยนไม่ทัน |
| จัดส่งแล้ว | ขอเปลี่ยนเส้นทางพัสดุได้ 1 ครั้ง ค่าบริการ 40 บาท |
| จัดส่งสำเร็จ | เปลี่ยนไม่ได้ |

## วิธีแก้ไขที่อยู่ก่อนแพ็กสินค้า

1. ไปที่ **คำสั่งซื้อของฉัน** แล้วเลือกคำสั่งซื้อที่ต้องการ
2. กด **แก้ไขที่อยู่จัดส่ง** แล้วเลือกที่อยู่ที่บันทึกไว้ หรือเพิ่มที่อยู่ใหม่
3. ตรวจสอบชื่อผู้รับ เบอร์โทรศัพท์ และรหัสไปรษณีย์ให้ถูกต้อง แล้วกด **ยืนยัน**

หากที่อยู่ใหม่อยู่คนละโซนจัดส่ง เช่น เปลี่ยนจากกรุงเทพฯ ไปต่างจังหวัด ระบบจะคำนวณค่าจัดส่งใหม่ และให้ชำระส่วนต่าง (ถ้ามี) ก่อนยืนยันการเปลี่ยนแปลง

## เปลี่ยนเส้นทางพัสดุที่จัดส่งแล้ว

สำหรับพัสดุที่ออกจากคลังแล้ว กรุณาติดต่อฝ่ายบริการลูกค้าทางแชตหรือ LINE @siammart พร้อมแจ้งหมายเลขพัสดุ (ขึ้นต้นด้วย SMX) เราเปลี่ยนเส้นทางให้ได้ 1 ครั้งต่อคำสั่งซื้อ ค่าบริการ 40 บาท และที่อยู่ใหม่ต้องอยู่ในจังหวัดเดียวกับที่อยู่เดิมเท่านั้น ระยะเวลาจัดส่งอาจเพิ่มขึ้น 1–2 วันทำการ

คำสั่งซื้อแบบเก็บเงินปลายทางไม่สามารถเปลี่ยนเส้นทางหลังจัดส่งได้ หากจำเป็นต้องเปลี่ยน กรุณายกเลิกคำสั่งซื้อก่อนสินค้าถูกจัดส่ง แล้วสั่งซื้อใหม่
`,
  },
  {
    slug: 'th-loyalty-points',
    title: 'คะแนนสะสม Siam Mart Points',
    locale: 'th',
    contentMd: `# คะแนนสะสม Siam Mart Points

ทุกการช้อปบน Siam Mart จะได้รับคะแนนสะสม ซึ่งนำมาใช้เป็นส่วนลดในการสั่งซื้อครั้งถัดไปได้

## วิธีรับคะแนน

- ทุกยอดซื้อ 25 บาท รับ 1 คะแนน (คิดจากยอดสินค้าหลังหักส่วนลด ไม่รวมค่าจัดส่ง)
- สมัครสมาชิกใหม่และยืนยันเบอร์โทรศัพท์ รับ 50 คะแนน
- รีวิวสินค้าพร้อมรูปถ่าย รับ 5 คะแนนต่อรีวิว (สูงสุด 20 รีวิวต่อเดือน)

คะแนนจากการซื้อจะเข้าบัญชีหลังพ้นระยะเวลาคืนสินค้า 14 วัน หากมีการคืนสินค้า คะแนนของสินค้าชิ้นนั้นจะถูกหักออก

## ระดับสมาชิก

ระดับสมาชิกคำนวณจากยอดซื้อสะสมในรอบ 12 เดือนล่าสุด และปรับระดับให้อัตโนมัติทุกวันที่ 1 ของเดือน

| ระดับ | ยอดซื้อสะสม 12 เดือน | อัตราการได้คะแนน | สิทธิพิเศษ |
|---|---|---|---|
| Silver | 0–9,999 บาท | 1 คะแนน / 25 บาท | คูปองวันเกิด 50 บาท |
| Gold | 10,000–49,999 บาท | 1.5 เท่า | ส่งฟรีแบบธรรมดา 2 ครั้งต่อเดือน |
| Platinum | 50,000 บาทขึ้นไป | 2 เท่า | ส่งฟรีแบบธรรมดาไม่จำกัดครั้ง และสายด่วนบริการลูกค้าเฉพาะ |

## การใช้คะแนน

ใช้คะแนนได้ในหน้าชำระเงิน โดย **100 คะแนน มีมูลค่า 10 บาท** ใช้ขั้นต่ำครั้งละ 100 คะแนน และใช้ได้ไม่เกิน 50% ของยอดสินค้าในคำสั่งซื้อ

คะแนนที่ได้รับในแต่ละปีจะหมดอายุวันที่ 31 ธันวาคมของปีถัดไป เช่น คะแนนที่ได้รับในปี 2567 จะหมดอายุวันที่ 31 ธันวาคม 2568 คะแนนไม่สามารถแลกเป็นเงินสดหรือโอนให้บัญชีอื่นได้
`,
  },
  {
    slug: 'th-pdpa-data-deletion',
    title: 'การขอลบบัญชีและข้อมูลส่วนบุคคล (PDPA)',
    locale: 'th',
    contentMd: `# การขอลบบัญชีและข้อมูลส่วนบุคคล (PDPA)

Siam Mart ให้ความสำคัญกับความเป็นส่วนตัวของคุณ ตามพระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล พ.ศ. 2562 (PDPA) คุณมีสิทธิ์ขอเข้าถึง แก้ไข โอนย้าย คัดค้านการใช้ หรือขอลบข้อมูลส่วนบุคคลของคุณได้

## วิธียื่นคำขอลบข้อมูล

1. ไปที่ **บัญชีของฉัน > ความเป็นส่วนตัว > ขอลบบัญชีและข้อมูล**
2. ยืนยันตัวตนด้วยรหัส OTP ที่ส่งไปยังเบอร์โทรศัพท์ที่ลงทะเบียนไว้
3. อ่านผลกระทบของการลบข้อมูลให้ครบถ้วน แล้วกด **ยืนยันคำขอ**

หากเข้าสู่ระบบไม่ได้ สามารถส่งคำขอทางอีเมลถึงเจ้าหน้าที่คุ้มครองข้อมูลส่วนบุคคล (DPO) ที่ dpo@siammart.example พร้อมแนบสำเนาบัตรประชาชนที่เขียนกำกับว่า "ใช้เพื่อยื่นคำขอลบข้อมูลกับ Siam Mart เท่านั้น"

## ระยะเวลาดำเนินการ

เราจะดำเนินการให้เสร็จภายใน 30 วันนับจากวันที่ได้รับคำขอที่มีข้อมูลครบถ้วน ในช่วง 7 วันแรกคุณยังยกเลิกคำขอได้ เพียงเข้าสู่ระบบอีกครั้ง เมื่อดำเนินการเสร็จแล้ว เราจะแจ้งผลทางอีเมลหรือ SMS

## สิ่งที่ควรทราบก่อนยื่นคำขอ

- ต้องไม่มีคำสั่งซื้อที่อยู่ระหว่างจัดส่ง คืนสินค้า หรือรอคืนเงิน
- คะแนนสะสม ยอดเงินใน Siam Mart Wallet และยอดคงเหลือบัตรของขวัญจะถูกยกเลิกทั้งหมด ควรใช้หรือถอนออกก่อน
- ข้อมูลบางส่วน เช่น ใบกำกับภาษีและเอกสารทางบัญชี เราจำเป็นต้องเก็บไว้อย่างน้อย 5 ปีตามที่กฎหมายกำหนด และจะใช้เพื่อวัตถุประสงค์ดังกล่าวเท่านั้น
- บัญชีที่ลบแล้วกู้คืนไม่ได้ หากต้องการใช้บริการอีกครั้งต้องสมัครสมาชิกใหม่

หากต้องการเพียงหยุดรับข่าวสารทางการตลาด ไม่จำเป็นต้องลบบัญชี สามารถปิดได้ที่ **บัญชีของฉัน > การแจ้งเตือน**
`,
  },
  {
    slug: 'th-damaged-items',
    title: 'ได้รับสินค้าชำรุดหรือเสียหายจากการขนส่ง',
    locale: 'th',
    contentMd: `# ได้รับสินค้าชำรุดหรือเสียหายจากการขนส่ง

หากพัสดุที่ได้รับอยู่ในสภาพเสียหาย สินค้าแตกหัก หรือได้รับไม่ครบ ไม่ต้องกังวล เราจะส่งสินค้าชิ้นใหม่หรือคืนเงินให้โดยไม่มีค่าใช้จ่าย

## แจ้งปัญหาภายใน 48 ชั่วโมง

กรุณาแจ้งภายใน **48 ชั่วโมง** หลังจากสถานะเปลี่ยนเป็น "จัดส่งสำเร็จ" ผ่านเมนู **คำสั่งซื้อของฉัน > แจ้งปัญหาสินค้า** พร้อมแนบหลักฐานดังนี้

- รูปกล่องพัสดุด้านนอกที่เห็นใบปะหน้าชัดเจน
- รูปสินค้าในมุมที่เห็นความเสียหาย
- วิดีโอขณะแกะกล่อง (ถ้ามี) ซึ่งช่วยให้เราพิจารณาได้เร็วขึ้นมาก

เคล็ดลับ: หากกล่องบุบ ฉีกขาด หรือเปียกตั้งแต่ตอนรับ ให้ถ่ายรูปไว้ต่อหน้าพนักงานส่งของ หรือปฏิเสธการรับพัสดุได้ทันที

## ทางเลือกในการแก้ไขปัญหา

หลังตรวจสอบหลักฐานภายใน 2 วันทำการ คุณเลือกได้ว่าต้องการ

1. **รับสินค้าชิ้นใหม่** จัดส่งให้ฟรีทันทีที่มีสินค้าในคลัง
2. **รับเงินคืนเต็มจำนวน** รวมค่าจัดส่ง เข้าช่องทางเดิมภายใน 7 วันทำการ

สินค้าที่มีมูลค่าไม่เกิน 300 บาท ส่วนใหญ่ไม่ต้องส่งคืน สำหรับสินค้าที่มีมูลค่าสูงกว่านั้น เราจะนัดขนส่งเข้ารับสินค้าถึงบ้านฟรีภายใน 3 วันทำการ กรุณาเก็บสินค้าและบรรจุภัณฑ์ไว้จนกว่าขนส่งจะมารับ

## กรณีได้รับสินค้าไม่ครบ

ก่อนแจ้งปัญหา ให้ตรวจสอบว่าคำสั่งซื้อถูกแยกส่งเป็นหลายพัสดุหรือไม่ โดยดูจากจำนวนหมายเลขพัสดุในหน้าคำสั่งซื้อ หากไม่ได้แยกส่ง ให้แจ้งผ่านเมนูเดียวกันภายใน 48 ชั่วโมง พร้อมรูปสินค้าทั้งหมดที่ได้รับและรูปใบปะหน้า

หากพบปัญหาหลังพ้น 48 ชั่วโมงไปแล้ว สามารถขอคืนสินค้าภายใน 14 วัน หรือเคลมประกันตามเงื่อนไขของสินค้าแต่ละประเภทได้
`,
  },
  {
    slug: 'th-shipping-rates',
    title: 'ค่าจัดส่งและระยะเวลาจัดส่ง',
    locale: 'th',
    contentMd: `# ค่าจัดส่งและระยะเวลาจัดส่ง

Siam Mart จัดส่งครบทุกจังหวัดทั่วประเทศไทย ค่าจัดส่งและระยะเวลาขึ้นอยู่กับพื้นที่ปลายทางและรูปแบบการจัดส่งที่เลือก (วันทำการคือวันจันทร์–เสาร์ ไม่รวมวันหยุดนักขัตฤกษ์)

## อัตราค่าจัดส่งแบบธรรมดา

| พื้นที่ | ระยะเวลา | ค่าจัดส่ง | ส่งฟรีเมื่อซื้อครบ |
|---|---|---|---|
| กรุงเทพฯ และปริมณฑล (นนทบุรี ปทุมธานี สมุทรปราการ) | 1–2 วันทำการ | 40 บาท | 500 บาท |
| ต่างจังหวัด (เช่น เชียงใหม่ ขอนแก่น ภูเก็ต) | 2–4 วันทำการ | 60 บาท | 1,000 บาท |
| พื้นที่ห่างไกลและเกาะ (เช่น เกาะสมุย เกาะพะงัน เกาะเต่า บางพื้นที่ของแม่ฮ่องสอน) | 4–7 วันทำการ | 100 บาท | ไม่ร่วมรายการ |

ยอดขั้นต่ำสำหรับส่งฟรีคิดจากยอดสินค้าหลังหักส่วนลด ไม่รวมค่าจัดส่ง

## การจัดส่งแบบเร่งด่วน

- **ส่งด่วนภายในวัน** (เฉพาะกรุงเทพฯ) ค่าบริการ 120 บาท สั่งและชำระเงินก่อน 12:00 น. รับของได้ภายในวันเดียวกัน หากสั่งหลังเวลานี้จะได้รับในวันถัดไป
- **Express** ทุกจังหวัด ยกเว้นพื้นที่ห่างไกล ได้รับภายใน 1–2 วันทำการ ค่าบริการ 90 บาท

## ข้อควรทราบ

- คำสั่งซื้อที่ชำระเงินหลัง 15:00 น. จะเริ่มดำเนินการจัดส่งในวันทำการถัดไป
- สินค้าขนาดใหญ่ที่หนักเกิน 20 กิโลกรัม เช่น เฟอร์นิเจอร์ เครื่องซักผ้า คิดค่าส่งเหมาจ่าย 300 บาททั่วประเทศ และเจ้าหน้าที่จะโทรนัดวันส่งล่วงหน้า
- ช่วงแคมเปญใหญ่ เช่น 11.11 และ 12.12 อาจใช้เวลาเพิ่มอีก 1–2 วันทำการ
- หากเลือกเก็บเงินปลายทาง จะมีค่าธรรมเนียมเพิ่ม 30 บาท
`,
  },
  {
    slug: 'th-cash-on-delivery',
    title: 'บริการเก็บเงินปลายทาง (COD)',
    locale: 'th',
    contentMd: `# บริการเก็บเงินปลายทาง (COD)

บริการเก็บเงินปลายทางเหมาะสำหรับลูกค้าที่สะดวกจ่ายเงินสดเมื่อได้รับสินค้า โดยชำระกับพนักงานส่งของได้ทันทีเมื่อพัสดุมาถึง

## เงื่อนไขการใช้บริการ

- ค่าธรรมเนียม 30 บาทต่อคำสั่งซื้อ (เพิ่มจากค่าจัดส่งปกติ)
- ยอดรวมของคำสั่งซื้อต้องไม่เกิน 5,000 บาท
- ต้องยืนยันเบอร์โทรศัพท์ในบัญชีเรียบร้อยแล้ว
- ไม่รองรับพื้นที่ห่างไกลและเกาะ สินค้าพรีออเดอร์ และการซื้อบัตรของขวัญ

## ขณะรับสินค้า

กรุณาเตรียมเงินสดให้พอดีกับยอดที่ต้องชำระ เพราะพนักงานส่งของอาจไม่มีเงินทอน ยอดที่ต้องชำระจะแสดงทั้งในหน้าคำสั่งซื้อและบนใบปะหน้าพัสดุ คุณตรวจสอบสภาพกล่องด้านนอกก่อนจ่ายเงินได้ แต่ไม่สามารถแกะกล่องก่อนชำระเงิน หากแกะแล้วพบปัญหา สามารถแจ้งคืนสินค้าตามนโยบายปกติได้

## การยกเลิกและการปฏิเสธรับพัสดุ

หากไม่ต้องการสินค้าแล้ว กรุณายกเลิกคำสั่งซื้อในแอปก่อนสินค้าถูกจัดส่ง ซึ่งทำได้ฟรี ไม่ควรปฏิเสธรับพัสดุโดยไม่ได้ยกเลิกก่อน เพราะหากบัญชีใดปฏิเสธรับพัสดุเก็บเงินปลายทาง 2 ครั้งภายใน 90 วัน ระบบจะระงับบริการเก็บเงินปลายทางของบัญชีนั้นเป็นเวลา 6 เดือน

## การคืนเงินสำหรับคำสั่งซื้อเก็บเงินปลายทาง

กรณีคืนสินค้าที่ชำระแบบเก็บเงินปลายทาง เราจะโอนเงินคืนเข้าบัญชีธนาคารหรือพร้อมเพย์ที่คุณแจ้งไว้ภายใน 7 วันทำการ หรือเลือกรับเป็นเครดิตใน Siam Mart Wallet ซึ่งจะได้รับทันทีหลังอนุมัติ ค่าธรรมเนียม COD 30 บาทจะไม่ได้รับคืน ยกเว้นกรณีสินค้าชำรุดหรือส่งผิด
`,
  },
];
