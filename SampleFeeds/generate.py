#!/usr/bin/env python3
"""Writes SampleFeeds/: a deterministic, realistic sample of the whole business.

A developer tool, not a runtime dependency (needs openpyxl, xlsxwriter and LibreOffice's
soffice). Run from anywhere: python3 SampleFeeds/generate.py (everything), or
python3 SampleFeeds/generate.py --only associates-and-merch (the four associate, vendor and
category files alone, leaving the files the golden reports were recorded from untouched).

Six stores in two regions, goals (global, store overrides, daily sales targets), and all five
feeds from 2024-01-01 through 2025-06-30, written by openpyxl, xlsxwriter, LibreOffice and as
CSV, with the messiness real exports have: title rows, total rows, repeated headers, store
names instead of codes, text dates, "$1,234.56" money, "45.2%" percents, and a re-sent
corrected file (sales_audit_2025H1_resend_corrected.csv, which sorts after the file it corrects).
"""
import csv
import datetime as dt
import os
import random
import shutil
import subprocess
import tempfile

import openpyxl
import xlsxwriter

HERE = os.path.dirname(os.path.abspath(__file__))
FEEDS = os.path.join(HERE, "feeds")
REFERENCE = os.path.join(HERE, "reference")
START = dt.date(2024, 1, 1)
END = dt.date(2025, 6, 30)
# The event feeds switch from per-event rows to weekly rows at this Monday, so that no week is
# split across two files (a file is authoritative for every week it contains).
WEEKLY_FROM = dt.date(2024, 12, 30)

STORES = [
    # code, name, region, aliases, relative size
    ("08", "Natick", "East", ["Hannoush Jewelers - Natick", "Natick Mall"], 1.25),
    ("10", "Framingham", "East", ["Hannoush Jewelers - Framingham", "Shoppers World"], 1.0),
    ("12", "Burlington", "East", ["Hannoush Jewelers - Burlington", "Burlington Mall"], 1.1),
    ("21", "Warwick", "South", ["Hannoush Jewelers - Warwick", "Warwick Mall"], 0.9),
    ("23", "Dartmouth", "South", ["Hannoush Jewelers - Dartmouth", "North Dartmouth"], 0.8),
    ("27", "Hyannis", "South", ["Hannoush Jewelers - Hyannis", "Cape Cod Mall"], 0.7),
]
FIRST = ["Ava", "Ben", "Cara", "Dan", "Eve", "Finn", "Gina", "Hal", "Iris", "Jon", "Kim", "Leo"]
LAST = ["Adams", "Brown", "Clark", "Diaz", "Evans", "Ford", "Gray", "Hill", "Jones", "King"]


def days(start=START, end=END):
    day = start
    while day <= end:
        yield day
        day += dt.timedelta(days=1)


def season(day):
    """Retail seasonality: December and Valentine's/Mother's Day peaks, quiet Januaries, busy weekends."""
    month = {1: 0.75, 2: 1.15, 3: 0.9, 4: 0.95, 5: 1.15, 6: 1.0, 7: 0.9, 8: 0.9, 9: 0.9, 10: 0.95, 11: 1.2, 12: 1.9}
    weekday = [0.8, 0.85, 0.9, 0.95, 1.15, 1.45, 1.0][day.weekday()]
    growth = 1.0 + 0.06 * ((day - START).days / 365)
    return month[day.month] * weekday * growth


def sales_rows():
    rng = random.Random(715)
    rows = []
    for day in days():
        for code, _, _, _, size in STORES:
            trans = max(3, round(rng.gauss(22, 4) * size * season(day)))
            items = round(trans * rng.uniform(1.3, 1.8))
            sales = round(trans * rng.gauss(330, 35), 2)
            ccp = round(rng.uniform(0.30, 0.55), 3)
            gp = round(rng.uniform(0.46, 0.58), 3)
            rows.append((code, day, sales, trans, items, ccp, gp))
    return rows


def write_sales_2024(rows):
    """xlsxwriter: title rows, real date cells, percent formats, repeated headers and monthly totals."""
    path = os.path.join(FEEDS, "sales_audit_2024.xlsx")
    wb = xlsxwriter.Workbook(path)
    ws = wb.add_worksheet("Sales Audit")
    date_fmt = wb.add_format({"num_format": "mm/dd/yyyy"})
    pct_fmt = wb.add_format({"num_format": "0.0%"})
    money_fmt = wb.add_format({"num_format": "$#,##0.00"})
    ws.write(0, 0, "Sales Audit Report")
    ws.write(1, 0, "Run: 01/02/2025 5:02 AM")
    header = ["Store #", "Business Date", "Net Sales", "Trans Count", "Items Sold", "CCP %", "GP %", "UPT", "ADS"]
    r = 3
    ws.write_row(r, 0, header)
    month = None
    totals = [0.0, 0, 0]
    for code, day, sales, trans, items, ccp, gp in [x for x in rows if x[1].year == 2024]:
        if month is not None and day.month != month:
            r += 1
            ws.write_row(r, 0, ["Total", None, round(totals[0], 2), totals[1], totals[2]])
            r += 1
            ws.write_row(r, 0, header)  # the export repeats its header at every page break
            totals = [0.0, 0, 0]
        month = day.month
        r += 1
        ws.write_number(r, 0, int(code))  # store codes as numbers: 8, not "08"
        ws.write_datetime(r, 1, dt.datetime.combine(day, dt.time()), date_fmt)
        ws.write_number(r, 2, sales, money_fmt)
        ws.write_number(r, 3, trans)
        ws.write_number(r, 4, items)
        ws.write_number(r, 5, ccp, pct_fmt)
        ws.write_number(r, 6, gp, pct_fmt)
        ws.write_number(r, 7, round(items / trans, 2))
        ws.write_number(r, 8, round(sales / trans, 2))
        totals = [totals[0] + sales, totals[1] + trans, totals[2] + items]
    r += 1
    ws.write_row(r, 0, ["Grand Total", None, None, None, None])
    wb.close()


def write_sales_2025(rows):
    """openpyxl: store names instead of codes, text dates, "$1,234.56" money, "45.2%" percents."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Daily Sales"
    ws.append(["POS Daily Sales Audit - All Stores"])
    ws.append(["Run: 07/01/2025 5:02 AM"])
    ws.append([])
    ws.append(["Location Name", "Sales Date", "Net Sales $", "Transactions", "Units", "Care Plan %", "Gross Margin %"])
    names = {code: aliases[0] for code, _, _, aliases, _ in STORES}
    for i, (code, day, sales, trans, items, ccp, gp) in enumerate(x for x in rows if x[1].year == 2025):
        store = names[code] if i % 3 else f"Store {int(code)} {dict((c, n) for c, n, *_ in STORES)[code]}"
        date = f"{day.month}/{day.day}/{day.year}" if i % 2 else day.isoformat()
        money = f"${sales:,.2f}" if i % 4 == 0 else sales
        pct = f"{ccp * 100:.1f}%" if i % 5 == 0 else ccp
        ws.append([store, date, money, trans, items, pct, round(gp * 100, 1)])
    ws.append(["Company Total", None, None, None, None])
    wb.save(os.path.join(FEEDS, "sales_audit_2025H1.xlsx"))


def write_sales_resend(rows):
    """A corrected re-send of June 2025: a few days' values were wrong in the first export."""
    path = os.path.join(FEEDS, "sales_audit_2025H1_resend_corrected.csv")
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Store", "Date", "Net Sales", "Transactions", "Items", "CCP %", "GP %"])
        for code, day, sales, trans, items, ccp, gp in rows:
            if day >= dt.date(2025, 6, 1):
                if code == "08" and day.day in (6, 7):
                    sales, trans, items = round(sales * 1.1, 2), trans + 2, items + 3
                writer.writerow([code, day.isoformat(), f"{sales:.2f}", trans, items, f"{ccp:.3f}", f"{gp:.3f}"])


def event_days(rng, mean, day, size):
    return max(0, round(rng.gauss(mean, mean / 3) * size * season(day) ** 0.5))


def write_credit(tmp):
    rng = random.Random(42)
    rows = []
    for day in days():
        for code, name, _, _, size in STORES:
            for _ in range(event_days(rng, 1.1, day, size)):
                rows.append((code, day, f"{rng.choice(FIRST)} {rng.choice(LAST)}", rng.choice([1500, 3000, 5000])))
    with open(os.path.join(FEEDS, "credit_applications_2024.csv"), "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, delimiter=";")
        writer.writerow(["Credit Application Report"])
        writer.writerow(["Store No", "App Date", "Applicant Name", "Credit Limit"])
        for code, day, applicant, limit in rows:
            if day.year == 2024:
                writer.writerow([code, day.strftime("%d-%b-%Y"), applicant, limit])
    source = os.path.join(tmp, "credit_applications_2025H1.csv")
    with open(source, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Store Code", "Application Date", "Applicant"])
        for code, day, applicant, _ in rows:
            if day.year == 2025:
                writer.writerow([code, day.isoformat(), applicant])
    subprocess.run(["soffice", "--headless", "--convert-to", "xlsx", "--outdir", tmp, source],
                   check=True, capture_output=True, timeout=300)
    shutil.copy(os.path.join(tmp, "credit_applications_2025H1.xlsx"), FEEDS)


def write_reviews():
    rng = random.Random(7)
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Reviews"
    ws.append(["Location Name", "Review Date", "Rating", "Source", "Reviewer"])
    weekly = {}
    for day in days():
        for code, name, _, aliases, size in STORES:
            count = event_days(rng, 0.6, day, size)
            if day < WEEKLY_FROM:
                for _ in range(count):
                    ws.append([aliases[0], dt.datetime.combine(day, dt.time(rng.randint(8, 21), rng.randint(0, 59))),
                               rng.choice([5, 5, 5, 4, 4, 3, 1]), rng.choice(["Google", "Facebook", "Yelp"]),
                               f"{rng.choice(FIRST)} {rng.choice(LAST)[0]}."])
            else:
                week = day - dt.timedelta(days=day.weekday())
                weekly[(name, week)] = weekly.get((name, week), 0) + count
    for row in ws.iter_rows(min_row=2, min_col=2, max_col=2):
        row[0].number_format = "yyyy-mm-dd hh:mm"
    wb.save(os.path.join(FEEDS, "birdeye_reviews_2024.xlsx"))
    with open(os.path.join(FEEDS, "birdeye_reviews_weekly_2025H1.csv"), "w", newline="", encoding="utf-8-sig") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Week Of", "Location", "Review Count"])
        for (name, week), count in sorted(weekly.items(), key=lambda item: (item[0][1], item[0][0])):
            writer.writerow([week.strftime("%b %d, %Y"), name, count])


def write_intakes():
    rng = random.Random(11)
    wb = xlsxwriter.Workbook(os.path.join(FEEDS, "crm_intakes_2024_2025H1.xlsx"))
    ws = wb.add_worksheet("Client Intakes")
    fmt = wb.add_format({"num_format": "m/d/yyyy h:mm AM/PM"})
    ws.write_row(0, 0, ["Company", "Created Date", "Client First", "Client Last", "Interest"])
    r = 0
    for day in days():
        for code, name, _, aliases, size in STORES:
            for _ in range(event_days(rng, 1.6, day, size)):
                r += 1
                ws.write_string(r, 0, aliases[0] if r % 2 else "  " + aliases[0].upper() + " ")
                ws.write_datetime(r, 1, dt.datetime.combine(day, dt.time(rng.randint(10, 20), rng.randint(0, 59))), fmt)
                ws.write_row(r, 2, [rng.choice(FIRST), rng.choice(LAST), rng.choice(["Engagement", "Repair", "Watch"])])
    wb.close()


def write_calls():
    rng = random.Random(3)
    weekly = {}
    with open(os.path.join(FEEDS, "outbound_call_log_2024.csv"), "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Phone System - Outbound Call Log"])
        writer.writerow([])
        writer.writerow(["Branch", "Call Time", "Dialed Number", "Duration"])
        for day in days():
            for code, name, _, _, size in STORES:
                count = event_days(rng, 5, day, size)
                if day < WEEKLY_FROM:
                    for _ in range(count):
                        hour, minute = rng.randint(9, 19), rng.randint(0, 59)
                        stamp = f"{day.month}/{day.day}/{day.year} {(hour - 1) % 12 + 1}:{minute:02d} {'PM' if hour >= 12 else 'AM'}"
                        writer.writerow([f"#{int(code)}", stamp, f"508-555-{rng.randint(1000, 9999)}", rng.randint(20, 600)])
                else:
                    week = day - dt.timedelta(days=day.weekday())
                    weekly.setdefault((code, week), [0] * 7)[day.weekday()] += count
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Weekly Calls"
    ws.append(["Outbound Calls by Week"])
    ws.append(["Store", "Week Starting", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "Total"])
    for (code, week), counts in sorted(weekly.items(), key=lambda item: (item[0][1], item[0][0])):
        ws.append([f"Store {code}", week, *counts, sum(counts)])
    for row in ws.iter_rows(min_row=3, min_col=2, max_col=2):
        row[0].number_format = "yyyy-mm-dd"
    wb.save(os.path.join(FEEDS, "outbound_calls_weekly_2025H1.xlsx"))


def write_reference():
    with open(os.path.join(REFERENCE, "stores.csv"), "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["code", "name", "region", "status", "aliases"])
        for code, name, region, aliases, _ in STORES:
            writer.writerow([code, name, region, "active", ";".join(aliases)])
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Goals"
    ws.append(["period", "scope", "metric", "target", "date"])
    global_targets = {"totalSales": 235000, "avgAds": 330, "upt": 1.55, "ccpPct": 0.42, "gpPct": 0.52,
                      "creditApps": 36, "birdeyeReviews": 20, "guestCapture": 52, "outboundCalls": 165}
    month = dt.date(2024, 1, 1)
    while month <= dt.date(2025, 12, 1):
        period = month.strftime("%Y-%m")
        factor = {12: 1.8, 2: 1.1, 5: 1.1, 11: 1.15, 1: 0.75}.get(month.month, 0.95)
        for metric, target in global_targets.items():
            value = round(target * factor, 2) if metric in ("totalSales", "creditApps", "guestCapture", "outboundCalls") else target
            ws.append([period, "global", metric, value, None])
        ws.append([period, "08", "totalSales", round(300000 * factor, 2), None])
        ws.append([period, "27", "totalSales", round(170000 * factor, 2), None])
        ws.append([period, "08", "upt", 1.6, None])
        month = (month.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
    for day in days(dt.date(2025, 5, 1), dt.date(2025, 6, 30)):
        ws.append([day.strftime("%Y-%m"), "08", "totalSales", 13500 if day.weekday() in (4, 5) else 8500, day])
    for row in ws.iter_rows(min_row=2, min_col=5, max_col=5):
        row[0].number_format = "yyyy-mm-dd"
    wb.save(os.path.join(REFERENCE, "goals.xlsx"))


# Associates: (id, name) per store; "0042" and "42" are two people (ids compare as text), and
# one floater ("7") works at Natick on Saturdays and Framingham on Mondays and Tuesdays.
ASSOCIATES = {
    "08": [("0042", "Ava Adams"), ("107", "Ben Brown"), ("215", "Cara Clark")],
    "10": [("42", "Dan Diaz"), ("118", "Eve Evans")],
    "12": [("301", "Finn Ford"), ("302", "Gina Gray")],
    "21": [("410", "Hal Hill"), ("411", "Iris Jones")],
    "23": [("505", "Jon King"), ("506", "Kim Adams")],
    "27": [("611", "Leo Brown")],
}
FLOATER = ("7", "Max Ortiz")
VENDORS = [
    ("V100", "Pandora"), ("V101", "Alex and Ani"), ("V102", "Citizen Watch Co."), ("V103", "Tacori"), ("V104", "Yurman, David"),
    ("V105", "Simon G."), ("V106", "Gabriel & Co."), ("V107", "Seiko"), ("V108", "Kirk Kara"), ("V109", "Verragio"),
    ("V110", "Chamilia"), ("V111", "Bulova"), ("V112", "Lagos"), ("V113", "Mikimoto"), ("V114", "Roberto Coin"),
]
ONLY_2024 = {"V110", "V111"}  # discontinued: LY sales only
ONLY_2025 = {"V114"}  # new line
CATEGORIES = ["Bridal", "Fashion", "Watches", "Repairs", "Diamonds", "Gold"]


def final_sales(rows):
    """Each store-day's values after the corrected re-send: what the warehouse ends up holding."""
    final = {}
    for code, day, sales, trans, items, ccp, gp in rows:
        if day >= dt.date(2025, 6, 1) and code == "08" and day.day in (6, 7):
            sales, trans, items = round(sales * 1.1, 2), trans + 2, items + 3
        final[(code, day)] = (sales, trans, items, ccp, gp)
    return final


def split(total, weights):
    """Integers that add up exactly to `total`, in proportion to `weights` (largest remainders)."""
    scale = sum(weights)
    shares = [total * w / scale for w in weights]
    parts = [int(x // 1) for x in shares]
    order = sorted(range(len(weights)), key=lambda i: (-(shares[i] - parts[i]), i))
    for i in order[: total - sum(parts)]:
        parts[i] += 1
    return parts


def staff(code, day):
    people = list(ASSOCIATES[code])
    if (code == "08" and day.weekday() == 5) or (code == "10" and day.weekday() in (0, 1)):
        people.append(FLOATER)
    return people


def money_text(cents, rng):
    return f"${cents / 100:,.2f}" if rng.random() < 0.2 else f"{cents / 100:.2f}"


def write_employee_daily(final):
    """Python's csv module: daily associate rows for 2025 H1 that add up to each store-day's sales."""
    rng = random.Random(909)
    path = os.path.join(FEEDS, "employee_sales_2025H1.csv")
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Store #", "Business Date", "Emp #", "Salesperson", "Net Sales", "Trans", "Items Sold", "CCP %", "GP %"])
        for (code, day), (sales, trans, items, ccp, gp) in sorted(final.items(), key=lambda x: (x[0][1], x[0][0])):
            if day.year != 2025:
                continue
            people = staff(code, day)
            weights = [rng.uniform(0.6, 1.4) for _ in people]
            cents = split(round(sales * 100), weights)
            for person, part, t, n in zip(people, cents, split(trans, weights), split(items, weights)):
                pct = ccp + rng.uniform(-0.05, 0.05)
                writer.writerow([
                    code, f"{day.month}/{day.day}/{day.year}", person[0], person[1], money_text(part, rng), t, n,
                    f"{pct * 100:.1f}%" if rng.random() < 0.5 else f"{pct:.3f}", f"{gp:.3f}",
                ])


def write_employee_monthly_2024(final):
    """openpyxl: monthly associate rows for 2024 (title rows above the header, mixed month forms)."""
    rng = random.Random(2024)
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Salesperson Summary"
    ws.append(["Salesperson Performance by Month - 2024"])
    ws.append([])
    ws.append(["Store", "Month", "Employee ID", "Employee Name", "Net Sales", "Transactions", "Units", "CCP Pct", "GP Pct"])
    for month in range(1, 13):
        for code, *_ in STORES:
            days_in = [(d, v) for (c, d), v in final.items() if c == code and d.year == 2024 and d.month == month]
            sales = round(sum(v[0] for _, v in days_in) * 100)
            trans = sum(v[1] for _, v in days_in)
            items = sum(v[2] for _, v in days_in)
            people = list(ASSOCIATES[code]) + ([FLOATER] if code in ("08", "10") else [])
            weights = [rng.uniform(0.7, 1.3) for _ in people]
            label = [f"{dt.date(2024, month, 1):%b %Y}", f"2024-{month:02d}", f"{month}/2024"][month % 3]
            for person, part, t, n in zip(people, split(sales, weights), split(trans, weights), split(items, weights)):
                ws.append([code, label, person[0], person[1], part / 100, t, n, round(rng.uniform(0.3, 0.55), 3), round(rng.uniform(0.46, 0.58), 3)])
    wb.save(os.path.join(FEEDS, "employee_monthly_2024.xlsx"))


def write_vendor_monthly(final):
    """xlsxwriter: sales by vendor per store and month, with a title row and a grand-total row."""
    rng = random.Random(77)
    path = os.path.join(FEEDS, "vendor_sales_2024_2025H1.xlsx")
    wb = xlsxwriter.Workbook(path)
    ws = wb.add_worksheet("Sales by Vendor")
    money = wb.add_format({"num_format": "$#,##0.00"})
    ws.write(0, 0, "Sales by Vendor")
    ws.write(1, 0, "Run: 07/01/2025 5:10 AM")
    ws.write_row(3, 0, ["Store", "Period", "Vendor #", "Vendor Name", "Net Sales", "Units Sold"])
    r = 3
    total_sales, total_units = 0, 0
    month = dt.date(2024, 1, 1)
    while month <= dt.date(2025, 6, 1):
        for code, *_ in STORES:
            store_sales = sum(v[0] for (c, d), v in final.items() if c == code and d.year == month.year and d.month == month.month)
            for vendor_id, name in VENDORS:
                if (vendor_id in ONLY_2024 and month.year != 2024) or (vendor_id in ONLY_2025 and month.year != 2025):
                    continue
                if rng.random() < 0.15:
                    continue  # no sales of this vendor at this store this month
                cents = round(store_sales * 100 * rng.uniform(0.01, 0.06))
                units = max(1, cents // rng.randint(15000, 60000))
                r += 1
                ws.write_string(r, 0, code)
                ws.write_string(r, 1, f"{month:%Y-%m}")
                ws.write_string(r, 2, vendor_id)
                ws.write_string(r, 3, name)
                ws.write_number(r, 4, cents / 100, money)
                ws.write_number(r, 5, units)
                total_sales, total_units = total_sales + cents, total_units + units
        month = (month.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
    r += 1
    ws.write_row(r, 0, ["Grand Total", None, None, None])
    ws.write_number(r, 4, total_sales / 100, money)
    ws.write_number(r, 5, total_units)
    wb.close()


def write_category_daily(final):
    """A ';'-delimited CSV by department per store-day (sale days only), adding up to each store-day's sales."""
    rng = random.Random(66)
    names = {code: [name] + aliases for code, name, _, aliases, _ in STORES}
    path = os.path.join(FEEDS, "category_sales_2024Q2_2025H1.csv")
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, delimiter=";")
        writer.writerow(["Location", "Sales Date", "Department", "Net Sales", "Qty"])
        for (code, day), (sales, trans, items, *_rest) in sorted(final.items(), key=lambda x: (x[0][1], x[0][0])):
            if not (dt.date(2024, 4, 1) <= day <= dt.date(2024, 6, 30) or day.year == 2025):
                continue
            weights = [rng.uniform(0.2, 3.0) if rng.random() > 0.15 else 0 for _ in CATEGORIES]
            if not any(weights):
                weights[1] = 1
            location = names[code][0] if rng.random() < 0.7 else names[code][2]
            for category, part, qty in zip(CATEGORIES, split(round(sales * 100), weights), split(items, weights)):
                if part == 0 and qty == 0:
                    continue
                writer.writerow([location, day.isoformat(), category, f"${part / 100:,.2f}", qty])


def write_associates_and_merch(rows):
    final = final_sales(rows)
    write_employee_daily(final)
    write_employee_monthly_2024(final)
    write_vendor_monthly(final)
    write_category_daily(final)


def main(only=None):
    rows = sales_rows()
    if only == "associates-and-merch":
        write_associates_and_merch(rows)
        return
    for folder in (FEEDS, REFERENCE):
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
    write_reference()
    write_sales_2024(rows)
    write_sales_2025(rows)
    write_sales_resend(rows)
    with tempfile.TemporaryDirectory() as tmp:
        write_credit(tmp)
    write_reviews()
    write_intakes()
    write_calls()
    write_associates_and_merch(rows)


if __name__ == "__main__":
    import sys

    main(sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "--only" else None)
