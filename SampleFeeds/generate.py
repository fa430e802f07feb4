#!/usr/bin/env python3
"""Writes SampleFeeds/: a deterministic, realistic sample of the whole business.

A developer tool, not a runtime dependency (needs openpyxl, xlsxwriter and LibreOffice's
soffice). Run from anywhere: python3 SampleFeeds/generate.py

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


def main():
    for folder in (FEEDS, REFERENCE):
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
    write_reference()
    rows = sales_rows()
    write_sales_2024(rows)
    write_sales_2025(rows)
    write_sales_resend(rows)
    with tempfile.TemporaryDirectory() as tmp:
        write_credit(tmp)
    write_reviews()
    write_intakes()
    write_calls()


if __name__ == "__main__":
    main()
