/**
 * English help-center articles of a coffee-shop point-of-sale product, written the way support
 * teams write them: steps under headings, policies with numbers, troubleshooting, notes.
 */
export const helpCenterEn: { title: string; contentMd: string }[] = [
  {
    title: 'Refunds and voids',
    contentMd: `# Refunds and voids

## Void or refund?

A void cancels a bill before the shift closes and leaves no refund record. After the shift has closed, use a refund instead. Only owners and managers can refund a bill; cashiers can void bills of their own shift.

## Refund a card payment

1. Open **Bills** and find the bill by its number or time.
2. Tap **Refund** and choose the items to refund.
3. Enter the manager PIN and tap **Confirm refund**.

The money goes back to the customer's card within 7 business days. Card refunds are possible for up to 60 days after the sale.

## Refund a PromptPay payment

Money paid by PromptPay cannot be sent back automatically. The shop transfers the money back from its own banking app, then taps **Record refund** on the bill so that the sales report stays right.

## Refund a cash payment

Give the cash back from the drawer and tap **Refund** on the bill. The refunded amount is taken off the expected cash of the current shift.

## Partial refunds

You can refund single items or a custom amount. A bill can be refunded several times until its full amount is reached.
`,
  },
  {
    title: 'Receipt printer setup and troubleshooting',
    contentMd: `# Receipt printer setup and troubleshooting

Supported printers: Epson TM-m30, Xprinter XP-58 and Sunmi built-in printers. Paper width can be 58 mm or 80 mm.

## Connect a Bluetooth printer

1. Turn the printer on and hold the feed button for 3 seconds until the light blinks.
2. In the app, open **Settings > Printers** and tap **Add printer**.
3. Choose the printer from the list and tap **Pair**.
4. Tap **Print test page** to check the connection.

## Thai text prints as strange symbols

The printer is using the wrong code page. Open **Settings > Printers**, choose the printer and set **Code page** to **TIS-620**, then print a test page. If it is still wrong, turn on **Print Thai as image**.

## The printer prints nothing

Check that the paper roll is inserted with the shiny side facing the print head. Thermal paper prints only on one side. If the light is red, the cover is open or the paper is out.

## The printer disconnects often

Keep the tablet within 5 metres of a Bluetooth printer and turn off battery saving for the app. If it still disconnects, restart the printer and pair it again.
`,
  },
  {
    title: 'Plans and pricing',
    contentMd: `# Plans and pricing

## Plans

| Plan | Price | Staff accounts | Branches |
| --- | --- | --- | --- |
| Starter | 390 THB a month | 3 | 1 |
| Pro | 790 THB a month | 15 | 3 |
| Chain | 1,990 THB a month | Unlimited | Unlimited |

Paying yearly gives 2 months free. Prices include VAT.

## Free trial

Every new shop gets a 30-day free trial of the Pro plan. No credit card is needed for the trial. When the trial ends, the shop moves to the Starter plan unless you choose another plan.

## Hardware

Hardware is not included in any plan. Tablets, printers and cash drawers are sold separately in our online store, and hardware bought from us has a 1-year warranty.

## Cancel your plan

1. Open **Settings > Subscription**.
2. Tap **Cancel plan** and choose a reason.
3. Confirm with your owner password.

Your plan stays active until the end of the paid period. We do not refund the rest of a month. Your data is kept for 90 days after cancelling, then deleted.
`,
  },
  {
    title: 'Menu items and options',
    contentMd: `# Menu items and options

## Add a menu item

1. Open **Menu** and tap **New item**.
2. Enter the name, price and category.
3. Add a photo if you like; photos must be smaller than 5 MB.
4. Tap **Save**. The item appears on every register within a minute.

## Sizes and options

Options let customers choose sweetness, milk or size. Create an option group such as **Sweetness** with the choices 0%, 25%, 50%, 100%, and attach it to the drinks that need it. An option can add to the price, for example +15 THB for oat milk. Each item can have up to 10 option groups.

## Hide an item that is sold out

Swipe the item to the left on the register and tap **Sold out**. The item shows as sold out until the next day, or until you tap **Available** again.

## Import a menu

You can import a menu from a CSV file with the columns name, price and category. Up to 500 items are imported at once.
`,
  },
  {
    title: 'Shifts and the cash drawer',
    contentMd: `# Shifts and the cash drawer

## Open a shift

1. Tap **Open shift** on the register.
2. Count the starting cash in the drawer and enter the amount.
3. Tap **Start**. Sales can be taken from now on.

## Close a shift

1. Tap **Close shift**.
2. Count the cash in the drawer and enter the counted amount.
3. Check the difference shown, add a note if there is one, and tap **Close**.

The shift report is sent to the owner's email after closing. A shift that stays open for more than 24 hours is closed automatically at the counted amount of zero, and the owner is notified.

## Cash differences

A difference of up to 20 THB is shown in yellow; a bigger one is shown in red and needs a manager PIN to close the shift.

## Pay in and pay out

Use **Pay out** to take cash from the drawer for shop expenses, such as buying ice, and **Pay in** to add change. Each pay in or pay out needs a reason and is listed on the shift report.
`,
  },
  {
    title: 'Staff accounts and permissions',
    contentMd: `# Staff accounts and permissions

## Add a staff member

1. Open **Settings > Staff** and tap **Add staff**.
2. Enter the name and choose a role.
3. Set a 6-digit PIN for the register.
4. Tap **Save**.

## Roles

- **Owner**: everything, including billing and deleting the shop.
- **Manager**: refunds, reports, menu and staff, but not billing.
- **Cashier**: sales, voids of their own shift and opening or closing a shift.

## Forgotten PIN

A manager or the owner can reset a staff member's PIN under **Settings > Staff**. After 5 wrong PIN attempts the register locks for 10 minutes.

## Remove a staff member

Tap the staff member and choose **Deactivate**. Their past sales stay in the reports. A deactivated account no longer counts toward the plan's staff limit.
`,
  },
  {
    title: 'Working offline',
    contentMd: `# Working offline

## What works without internet

The register keeps taking cash and card sales when the internet is down. Bills are stored on the tablet and sent when the connection returns. The app can work offline for up to 72 hours; after that it asks to connect before taking more sales.

## What needs internet

PromptPay QR payments, member points and email receipts need internet. While offline, the PromptPay button is greyed out.

## Check that everything was sent

1. Open **Settings > Sync**.
2. Look at **Waiting to send**: it should show 0 bills.
3. If bills are waiting, tap **Send now**.

Do not uninstall the app or clear its data while bills are waiting to send: those bills would be lost.
`,
  },
  {
    title: 'Members, points and tax invoices',
    contentMd: `# Members, points and tax invoices

## Earning points

Members earn 1 point for every 25 THB spent. Points are added after the bill is paid and expire 12 months after they are earned. Members are found by phone number at the register.

## Redeem points

1. Find the member by phone number.
2. Tap **Redeem** and choose a reward.
3. The reward is added to the bill at 0 THB.

100 points can be exchanged for a free drink of up to 65 THB.

## Full tax invoices

A customer can ask for a full tax invoice within 7 days of the purchase. Open the bill, tap **Tax invoice** and enter the customer's company name, address and 13-digit tax ID. The invoice can be printed or sent by email. Tax invoices are available on the Pro and Chain plans only.
`,
  },
];
