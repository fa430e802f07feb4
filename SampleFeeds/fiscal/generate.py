#!/usr/bin/env python3
"""Writes SampleFeeds/fiscal/: a deterministic sample for the NRF 4-5-4 calendar and comp stores.

A developer tool, not a runtime dependency (needs openpyxl and xlsxwriter). Run from anywhere:
python3 SampleFeeds/fiscal/generate.py (rewrites feeds/ and reference/ here; ddkpi.toml and
README.md are kept as written), or with --check to print, writing nothing, the fiscal months of
FY2023-FY2025, each store's quarterly sales against its targets, and the comp sales (comparable
stores, totals and vs LY) of the kpi ranges as of 2025-06-17 and of the FY2025 Q1/Q2 and FY2024 Q2
reviews, computed here independently of ddkpi.

Seven stores in two regions, with `opened`/`closed` dates: Milford opened 2024-09-14 (not
comparable in FY2025 Q2), Waterbury closed after trading on 2025-05-17 (comparable in FY2025 Q1,
not from FY2025-M04 on), Torrington opened 2024-02-03 (the last day of FY2023, so it is comparable
from FY2025 on), Westport has no `opened` (it counts from its first sales row, 2023-01-29).
Daily sales audits from 2023-01-29 (the first day of the 53-week FY2023) through 2025-08-02 (the
last day of FY2025 Q2): FY2023 by openpyxl, FY2024 by xlsxwriter, FY2025 H1 as CSV; credit
applications (one row per application, CSV) and weekly outbound calls (Sunday weeks, openpyxl).
Goals by fiscal month (`FY2025-M04`) for FY2024 and FY2025, with store overrides and daily sales
targets for Greenwich in FY2025-M05 (2025-06-01 ... 2025-07-05, across two calendar months).
Stores are closed on Christmas Day: no rows that day (ddkpi.toml excuses 12-25 for the checks).
"""
import csv
import datetime as dt
import math
import os
import random
import re
import shutil
import sys
import zipfile

import openpyxl
import xlsxwriter

HERE = os.path.dirname(os.path.abspath(__file__))
FEEDS = os.path.join(HERE, "feeds")
REFERENCE = os.path.join(HERE, "reference")
START = dt.date(2023, 1, 29)  # FY2023 day 1
END = dt.date(2025, 8, 2)  # FY2025 Q2's last day
# Fixed document timestamps, so that running the script twice writes the same bytes.
STAMP = dt.datetime(2025, 8, 3, 5, 2, 0)

# code, name, region, status, opened, closed, aliases, size, yearly growth, average sale
STORES = [
    ("31", "Greenwich", "East", "active", "2019-04-06", "", ["Harbor Jewelers - Greenwich", "Greenwich Avenue"], 1.30, 0.03, 455),
    ("32", "Stamford", "East", "active", "2019-06-15", "", ["Harbor Jewelers - Stamford", "Stamford Town Center"], 1.10, 0.01, 395),
    ("33", "Westport", "East", "active", "", "", ["Harbor Jewelers - Westport", "Post Road"], 0.95, -0.03, 410),
    ("34", "Milford", "East", "active", "2024-09-14", "", ["Harbor Jewelers - Milford", "Connecticut Post"], 0.95, 0.0, 365),
    ("35", "Danbury", "West", "active", "2019-08-17", "", ["Harbor Jewelers - Danbury", "Danbury Fair"], 1.20, 0.04, 380),
    ("36", "Waterbury", "West", "closed", "2019-11-02", "2025-05-17", ["Harbor Jewelers - Waterbury", "Brass Mill Center"], 0.80, -0.08, 345),
    ("37", "Torrington", "West", "active", "2024-02-03", "", ["Harbor Jewelers - Torrington", "Torrington Commons"], 0.75, 0.0, 335),
]
CODES = [s[0] for s in STORES]
INFO = {s[0]: s for s in STORES}
FIRST = ["Ava", "Ben", "Cara", "Dan", "Eve", "Finn", "Gina", "Hal", "Iris", "Jon", "Kim", "Leo", "Mia", "Noah"]
LAST = ["Adams", "Brown", "Clark", "Diaz", "Evans", "Ford", "Gray", "Hill", "Jones", "King", "Lopez", "Moore"]


def iso(text):
    return dt.date.fromisoformat(text) if text else None


def days(start=START, end=END):
    day = start
    while day <= end:
        yield day
        day += dt.timedelta(days=1)


# --- NRF 4-5-4 calendar (SPEC section 21) -----------------------------------------------------

def fiscal_year_end(year):
    """The last day of FY`year`: the Saturday nearest January 31 of year + 1."""
    jan31 = dt.date(year + 1, 1, 31)
    offset = (5 - jan31.weekday()) % 7  # days forward to the next Saturday (Monday = 0)
    return jan31 + dt.timedelta(days=offset if offset <= 3 else offset - 7)


def fiscal_year_start(year):
    return fiscal_year_end(year - 1) + dt.timedelta(days=1)


def fiscal_months(year):
    """(label, first day, last day, weeks) of FY`year`'s twelve months, 4-5-4 per quarter; a
    53-week year gives its extra week to M12."""
    weeks = [4, 5, 4] * 4
    if (fiscal_year_end(year) - fiscal_year_start(year)).days + 1 == 371:
        weeks[11] += 1
    months, first = [], fiscal_year_start(year)
    for index, count in enumerate(weeks):
        last = first + dt.timedelta(days=7 * count - 1)
        months.append((f"FY{year}-M{index + 1:02d}", first, last, count))
        first = last + dt.timedelta(days=1)
    assert first - dt.timedelta(days=1) == fiscal_year_end(year)
    return months


def fiscal_year(day):
    return day.year if day >= fiscal_year_start(day.year) else day.year - 1


def fiscal_month(day):
    """The fiscal month of a date: (label, first day, last day, weeks)."""
    for month in fiscal_months(fiscal_year(day)):
        if month[1] <= day <= month[2]:
            return month
    raise AssertionError(day)


def fiscal_quarter(day):
    label = fiscal_month(day)[0]
    return f"{label[:6]}Q{(int(label[-2:]) - 1) // 3 + 1}"


# --- Sales --------------------------------------------------------------------------------------

def nth_weekday(year, month, weekday, n):
    """The n-th given weekday (Monday = 0) of a month."""
    first = dt.date(year, month, 1)
    return first + dt.timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))


MONTH = {1: 0.74, 2: 0.98, 3: 0.86, 4: 0.9, 5: 1.02, 6: 1.0, 7: 0.88, 8: 0.87, 9: 0.86, 10: 0.9, 11: 0.98, 12: 1.0}
WEEKDAY = [0.74, 0.78, 0.84, 0.93, 1.18, 1.55, 0.94]  # Monday ... Sunday: Saturdays strongest


def season(day):
    """A day's traffic relative to an average day: the weekday rhythm (Saturdays strongest),
    Valentine's Day, Mother's Day, Thanksgiving and Black Friday, a December climb to the 23rd,
    a slow January."""
    factor = MONTH[day.month] * WEEKDAY[day.weekday()]
    if day.month == 2 and 7 <= day.day <= 14:
        factor *= {14: 1.8, 13: 1.6, 12: 1.45, 11: 1.35, 10: 1.3}.get(day.day, 1.15)
    mothers_day = nth_weekday(day.year, 5, 6, 2)
    if 0 <= (mothers_day - day).days <= 3:
        factor *= 1.35
    thanksgiving = nth_weekday(day.year, 11, 3, 4)
    if day == thanksgiving:
        factor *= 0.45
    elif 1 <= (day - thanksgiving).days <= 3:
        factor *= {1: 1.85, 2: 1.3, 3: 1.15}[(day - thanksgiving).days]
    if day.month == 12:
        if day.day <= 23:
            # In the last weeks before Christmas every day is busy: the weekday rhythm flattens.
            flat = WEEKDAY[day.weekday()] ** (0.72 if day.day >= 14 else 0.88)
            factor = flat / WEEKDAY[day.weekday()] * factor * (1.2 + 0.6 * (day.day - 1) / 22)
        elif day.day == 24:
            factor = 1.7
        elif day.day == 26:
            factor = 1.05
        else:
            factor *= 0.95
    return factor


def trading(code, day):
    """Whether a store trades on a day: open (from `opened`, or the data's first day), not yet
    closed (it trades on its `closed` day, its last), and not Christmas Day."""
    _, _, _, _, opened, closed, *_ = INFO[code]
    opened, closed = iso(opened) or START, iso(closed)
    return opened <= day and (closed is None or day <= closed) and not (day.month == 12 and day.day == 25)


def store_factor(code, day):
    """A store's level on a day: its size and growth, a ramp after opening, a closing sale."""
    _, _, _, _, opened, closed, _, size, growth, _ = INFO[code]
    years = (day - START).days / 365.25
    factor = size * (1 + growth) ** years * 1.02 ** years  # the chain's own growth, on top
    if opened and iso(opened) > START:
        age = (day - iso(opened)).days
        factor *= 0.7 + 0.3 * min(1.0, age / 150) + (0.2 if age < 9 else 0.0)  # grand opening, then a ramp
    if closed and 0 <= (iso(closed) - day).days < 21:
        factor *= 1.3  # "everything must go"
    return factor


def clip(value, limit=0.2):
    """A day's noise, without the tails that would read as a wrong file (SPEC section 18's outliers)."""
    return max(-limit, min(limit, value))


def sales_rows():
    """(code, day, sales, transactions, items, ccp, gp) for every trading store-day."""
    rng = random.Random(454)
    ccp_base = {code: rng.uniform(0.34, 0.48) for code in CODES}
    rows = []
    for day in days():
        for code in CODES:
            _, _, _, _, _, closed, _, _, _, ads = INFO[code]
            # Draw the same numbers on every store-day, trading or not, so that one store's
            # dates never shift another store's noise.
            noise = [clip(rng.gauss(0, 0.1)), clip(rng.gauss(0, 0.07)), rng.uniform(1.36, 1.74), rng.gauss(0, 0.035), rng.gauss(0, 0.018)]
            if not trading(code, day):
                continue
            trans = max(2, round(21 * store_factor(code, day) * season(day) * math.exp(noise[0])))
            ticket = ads * math.exp(noise[1])
            if day.month == 12 and day.day <= 24:
                ticket *= 1.08  # gifts
            elif day.month == 12 or (day.month == 1 and day.day <= 7):
                ticket *= 0.88  # exchanges and small buys after Christmas
            elif day.month == 2 and 7 <= day.day <= 14:
                ticket *= 0.92
            sales = round(trans * ticket, 2)
            items = round(trans * noise[2])
            ccp = round(min(0.7, max(0.15, ccp_base[code] + noise[3])), 3)
            gp = round(0.52 + noise[4] - (0.09 if closed and (iso(closed) - day).days < 21 else 0.0), 3)
            rows.append((code, day, sales, trans, items, ccp, gp))
    return rows


def pin_zip(path):
    """openpyxl stamps the save time into docProps/core.xml and every zip entry: pin them."""
    with zipfile.ZipFile(path) as source:
        entries = [(info, source.read(info)) for info in source.infolist()]
    stamp = STAMP.strftime("%Y-%m-%dT%H:%M:%SZ")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for info, data in entries:
            if info.filename == "docProps/core.xml":
                data = re.sub(rb"(<dcterms:(?:created|modified)[^>]*>)[^<]*", lambda m: m.group(1) + stamp.encode(), data)
            pinned = zipfile.ZipInfo(info.filename, date_time=(1980, 1, 1, 0, 0, 0))
            pinned.compress_type = zipfile.ZIP_DEFLATED
            pinned.external_attr = info.external_attr
            target.writestr(pinned, data)


def openpyxl_workbook():
    wb = openpyxl.Workbook()
    wb.properties.creator = "POS Reporting"
    wb.properties.created = STAMP
    return wb


def write_sales_fy2023(rows):
    """openpyxl: a title block, "31 - Greenwich" store labels, real date cells, percent cells,
    a total row after every fiscal month."""
    wb = openpyxl_workbook()
    ws = wb.active
    ws.title = "Sales Audit FY2023"
    ws.append(["Harbor Jewelers - Daily Sales Audit"])
    ws.append(["Fiscal Year 2023 (01/29/2023 - 02/03/2024)"])
    ws.append(["Run: 02/04/2024 5:02 AM"])
    ws.append([])
    ws.append(["Store", "Business Date", "Net Sales", "Transactions", "Items Sold", "CCP %", "GP %"])
    month, totals = None, [0.0, 0, 0]
    for code, day, sales, trans, items, ccp, gp in (x for x in rows if fiscal_year(x[1]) == 2023):
        label = fiscal_month(day)[0]
        if month is not None and label != month:
            ws.append([f"{month} Total", None, round(totals[0], 2), totals[1], totals[2]])
            totals = [0.0, 0, 0]
        month = label
        ws.append([f"{code} - {INFO[code][1]}", day, sales, trans, items, ccp, gp])
        row = ws.max_row
        ws.cell(row, 2).number_format = "mm/dd/yyyy"
        ws.cell(row, 3).number_format = "#,##0.00"
        ws.cell(row, 6).number_format = ws.cell(row, 7).number_format = "0.0%"
        totals = [totals[0] + sales, totals[1] + trans, totals[2] + items]
    ws.append([f"{month} Total", None, round(totals[0], 2), totals[1], totals[2]])
    ws.append(["Grand Total"])
    path = os.path.join(FEEDS, "sales_audit_FY2023.xlsx")
    wb.save(path)
    pin_zip(path)
    return path


def write_sales_fy2024(rows):
    """xlsxwriter: store codes as numbers, m/d/yyyy date cells, money and percent formats, UPT and
    ADS columns, the header repeated at every fiscal month (page break) after a total row."""
    path = os.path.join(FEEDS, "sales_audit_FY2024.xlsx")
    wb = xlsxwriter.Workbook(path)
    wb.set_properties({"author": "POS Reporting", "created": STAMP})
    ws = wb.add_worksheet("Sales Audit")
    date_fmt = wb.add_format({"num_format": "m/d/yyyy"})
    pct_fmt = wb.add_format({"num_format": "0.0%"})
    money_fmt = wb.add_format({"num_format": "$#,##0.00"})
    ws.write(0, 0, "Sales Audit Report - FY2024")
    ws.write(1, 0, "Run: 02/02/2025 5:02 AM")
    header = ["Store #", "Business Date", "Net Sales", "Trans Count", "Items Sold", "CCP %", "GP %", "UPT", "ADS"]
    r = 3
    ws.write_row(r, 0, header)
    month, totals = None, [0.0, 0, 0]
    for code, day, sales, trans, items, ccp, gp in (x for x in rows if fiscal_year(x[1]) == 2024):
        label = fiscal_month(day)[0]
        if month is not None and label != month:
            r += 1
            ws.write_row(r, 0, ["Total", None, round(totals[0], 2), totals[1], totals[2]])
            r += 1
            ws.write_row(r, 0, header)
            totals = [0.0, 0, 0]
        month = label
        r += 1
        ws.write_number(r, 0, int(code))
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
    ws.write_row(r, 0, ["Total", None, round(totals[0], 2), totals[1], totals[2]])
    r += 1
    ws.write_row(r, 0, ["Grand Total"])
    wb.close()
    return path


def write_sales_fy2025(rows):
    """CSV: store names and aliases, M/D/YYYY text dates, "$1,234.56" money, "45.2%" percents."""
    path = os.path.join(FEEDS, "sales_audit_FY2025H1.csv")
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Location Name", "Sales Date", "Net Sales $", "Transactions", "Units", "Care Plan %", "Gross Margin %"])
        for i, (code, day, sales, trans, items, ccp, gp) in enumerate(x for x in rows if fiscal_year(x[1]) == 2025):
            store = INFO[code][6][0] if i % 3 else INFO[code][1]
            writer.writerow([store, f"{day.month}/{day.day}/{day.year}", f"${sales:,.2f}", trans, items,
                             f"{ccp * 100:.1f}%", f"{gp * 100:.1f}%"])
    return path


# --- Event feeds ------------------------------------------------------------------------------

def poisson(rng, mean):
    """Knuth's method: fine for the small means here, and deterministic for a seeded rng."""
    limit, count, product = math.exp(-mean), 0, rng.random()
    while product > limit:
        count += 1
        product *= rng.random()
    return count


def credit_rows():
    """(code, day, applicant, limit, decision): one per credit application."""
    rng = random.Random(2023)
    rows = []
    for day in days():
        for code in CODES:
            n = poisson(rng, 1.15 * store_factor(code, day) * season(day) ** 0.6)
            people = [(f"{rng.choice(FIRST)} {rng.choice(LAST)}", rng.choice([1500, 2500, 3000, 5000]),
                       rng.choice(["Approved", "Approved", "Declined"])) for _ in range(n)]
            if trading(code, day):
                rows += [(code, day, *person) for person in people]
    return rows


def write_credit(applications):
    """Plain CSV with a title row above the header, ISO dates."""
    path = os.path.join(FEEDS, "credit_applications_FY2023_FY2025H1.csv")
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Harbor Card - Credit Application Report"])
        writer.writerow(["Store Code", "Application Date", "Applicant Name", "Credit Limit", "Decision"])
        for code, day, applicant, limit, decision in applications:
            writer.writerow([code, day.isoformat(), applicant, limit, decision])
    return path


def write_calls():
    """openpyxl: weekly outbound calls, one row per store and Sunday week, Sun ... Sat columns."""
    rng = random.Random(77)
    weekly = {}
    for day in days():
        for code in CODES:
            n = max(0, round(rng.gauss(5.5, 1.8) * store_factor(code, day) * season(day) ** 0.4))
            if not trading(code, day):
                continue
            week = day - dt.timedelta(days=(day.weekday() + 1) % 7)  # the Sunday at or before
            weekly.setdefault((code, week), [0] * 7)[(day.weekday() + 1) % 7] += n
    wb = openpyxl_workbook()
    ws = wb.active
    ws.title = "Weekly Calls"
    ws.append(["Outbound Calls by Week (Sunday - Saturday)"])
    ws.append(["Store", "Week Starting", "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Total"])
    for (code, week), counts in sorted(weekly.items(), key=lambda item: (item[0][1], item[0][0])):
        ws.append([INFO[code][1], week, *counts, sum(counts)])
        ws.cell(ws.max_row, 2).number_format = "yyyy-mm-dd"
    path = os.path.join(FEEDS, "outbound_calls_weekly_FY2023_FY2025H1.xlsx")
    wb.save(path)
    pin_zip(path)
    return path, len(weekly)


# --- Reference data -----------------------------------------------------------------------------

def write_stores():
    path = os.path.join(REFERENCE, "stores.csv")
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["code", "name", "region", "status", "opened", "closed", "aliases"])
        for code, name, region, status, opened, closed, aliases, *_ in STORES:
            writer.writerow([code, name, region, status, opened, closed, ";".join(aliases)])
    return path


def round_to(value, step):
    return int(step * round(value / step))


def goal_rows(rows, applications):
    """Goals as a planner would set them: each fiscal month's per-store default is last year's
    same fiscal month (per week) averaged over the stores that traded all of it, plus 4 %."""
    sales, trans, items, apps = {}, {}, {}, {}
    for code, day, s, t, n, *_ in rows:
        key = (code, fiscal_month(day)[0])
        sales[key] = sales.get(key, 0) + s
        trans[key] = trans.get(key, 0) + t
        items[key] = items.get(key, 0) + n
    for code, day, *_ in applications:
        key = (code, fiscal_month(day)[0])
        apps[key] = apps.get(key, 0) + 1

    goals = []
    base = ["32", "33", "35"]  # the established mid-size stores the plan is built on
    for year in (2024, 2025):
        for (label, first, last, weeks), (ly_label, _, _, ly_weeks) in zip(fiscal_months(year), fiscal_months(year - 1)):
            def plan(table, codes, growth):  # last year's same fiscal month per week, times this month's weeks
                return sum(table.get((c, ly_label), 0) for c in codes) / len(codes) / ly_weeks * weeks * growth

            g_sales = round_to(plan(sales, base, 1.04), 500)
            g_ads = round_to(sum(sales.get((c, ly_label), 0) for c in base) / sum(trans.get((c, ly_label), 0) for c in base) * 1.02, 5)
            g_upt = round(sum(items.get((c, ly_label), 0) for c in base) / sum(trans.get((c, ly_label), 0) for c in base) + 0.03, 2)
            g_apps = round(plan(apps, base, 1.05))
            goals += [(label, "global", "totalSales", g_sales, None), (label, "global", "avgAds", g_ads, None),
                      (label, "global", "upt", g_upt, None), (label, "global", "creditApps", g_apps, None)]
            # The flagship plans on its own history: sales plus 6 % (in FY2025-M05 by daily targets
            # instead), its own average sale plus 2 %, and a UPT above the default.
            if label != "FY2025-M05":
                goals.append((label, "31", "totalSales", round_to(plan(sales, ["31"], 1.06), 500), None))
            goals.append((label, "31", "avgAds", round_to(sales[("31", ly_label)] / trans[("31", ly_label)] * 1.02, 5), None))
            goals.append((label, "31", "upt", round(g_upt + 0.05, 2), None))
            # Torrington: a new, small store; in FY2024 (no history) 55 % of the default, then its
            # own history plus 12 % (it is still ramping up).
            ly37 = plan(sales, ["37"], 1.12)
            goals.append((label, "37", "totalSales", round_to(ly37 if year == 2025 else g_sales * 0.55, 500), None))
            # Milford: no target before it opens, the opening month prorated, then 80 % of the default.
            opened = iso(INFO["34"][4])
            share = min(1.0, max(0.0, ((last - opened).days + 1) / ((last - first).days + 1)))
            goals.append((label, "34", "totalSales", round_to(g_sales * 0.8 * share, 500), None))
            if share < 1:
                goals.append((label, "34", "creditApps", round(g_apps * share), None))
            # Waterbury: a declining store planned on its own history; the closing month prorated
            # to its last day, no target after it.
            closed = iso(INFO["36"][5])
            share = min(1.0, max(0.0, ((closed - first).days + 1) / ((last - first).days + 1)))
            goals.append((label, "36", "totalSales", round_to(plan(sales, ["36"], 0.98) * share, 500), None))
            if share < 1:
                goals.append((label, "36", "creditApps", round(g_apps * share), None))
    # Daily sales targets for Greenwich over FY2025-M05 (June 1 ... July 5, 2025): last year's
    # same fiscal month plus 6 %, spread by weekday.
    label, first, last, weeks = fiscal_months(2025)[4]
    total = sales[("31", fiscal_months(2024)[4][0])] * 1.06
    span = list(days(first, last))
    weights = [0 if d.month == 12 and d.day == 25 else WEEKDAY[d.weekday()] * (0.75 if d == dt.date(2025, 7, 4) else 1) for d in span]
    for d, w in zip(span, weights):
        goals.append((label, "31", "totalSales", round_to(total * w / sum(weights), 50), d))
    return goals


def write_goals(goals):
    path = os.path.join(REFERENCE, "goals.csv")
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["period", "scope", "metric", "target", "date"])
        for period, scope, metric, target, day in goals:
            if day is not None:
                assert fiscal_month(day)[0] == period
            writer.writerow([period, scope, metric, target, day.isoformat() if day else ""])
    return path


# --- Check ------------------------------------------------------------------------------------

def check(rows, goals):
    print("Fiscal months (NRF 4-5-4; FY named by the calendar year it begins in)")
    print(f"{'month':<12}{'start':<12}{'end':<12}{'weeks':>5}  quarter")
    for year in (2023, 2024, 2025):
        for label, first, last, weeks in fiscal_months(year):
            print(f"{label:<12}{first.isoformat():<12}{last.isoformat():<12}{weeks:>5}  {fiscal_quarter(first)}")
        print(f"{'FY' + str(year):<12}{fiscal_year_start(year).isoformat():<12}{fiscal_year_end(year).isoformat():<12}"
              f"{((fiscal_year_end(year) - fiscal_year_start(year)).days + 1) // 7:>5}")
    for day in (dt.date(2023, 1, 29), dt.date(2024, 2, 3), dt.date(2024, 2, 4), dt.date(2024, 9, 14), dt.date(2025, 5, 17),
                dt.date(2025, 6, 17), dt.date(2025, 8, 2)):
        print(f"  {day} is in {fiscal_month(day)[0]} ({fiscal_quarter(day)})")
    print()
    print("Sales per store and fiscal quarter against the totalSales targets (store override > global;")
    print("Greenwich's FY2025-M05 from its daily targets)")
    targets = {}
    for period, scope, metric, target, day in goals:
        if metric == "totalSales":
            key = (scope, period)
            targets[key] = targets.get(key, 0) + target if day else targets.get(key, target)
    quarters = ["FY2024Q1", "FY2024Q2", "FY2025Q1", "FY2025Q2"]
    print(f"{'store':<16}" + "".join(f"{q:>26}" for q in quarters))
    for code in CODES:
        cells = []
        for quarter in quarters:
            actual = sum(s for c, d, s, *_ in rows if c == code and fiscal_quarter(d) == quarter)
            months = [m for m in fiscal_months(int(quarter[2:6])) if fiscal_quarter(m[1]) == quarter]
            target = sum(targets.get((code, m[0]), targets[("global", m[0])]) for m in months)
            pct = f"{actual / target - 1:+.1%}" if target else "n/a"
            cells.append(f"{actual:>11,.0f} /{target:>9,.0f} {pct:>4}")
        print(f"{code + ' ' + INFO[code][1]:<16}" + "".join(f"{c:>26}" for c in cells))


def comparable(code, current, last_year):
    """SPEC section 21: open on every day of both ranges (no `opened`: since the first sales row)."""
    opened = iso(INFO[code][4]) or START
    closed = iso(INFO[code][5])
    return opened <= last_year[0] and (closed is None or closed > current[1])


def kpi_ranges(as_of):
    """kpi's periods to date under nrf-454 and their LY: the same number of days from the start of
    the same-numbered fiscal week, month, quarter and year a year earlier, capped at its end."""
    year = fiscal_year(as_of)
    months, ly_months = fiscal_months(year), fiscal_months(year - 1)
    index = [m[0] for m in months].index(fiscal_month(as_of)[0])
    q = index // 3
    week = (as_of - fiscal_year_start(year)).days // 7
    spans = {
        "WTD": (fiscal_year_start(year) + dt.timedelta(days=7 * week), fiscal_year_start(year - 1) + dt.timedelta(days=7 * week),
                fiscal_year_start(year - 1) + dt.timedelta(days=7 * week + 6)),
        "MTD": (months[index][1], ly_months[index][1], ly_months[index][2]),
        "QTD": (months[3 * q][1], ly_months[3 * q][1], ly_months[3 * q + 2][2]),
        "YTD": (fiscal_year_start(year), fiscal_year_start(year - 1), fiscal_year_end(year - 1)),
    }
    for name, (start, ly_start, ly_cap) in spans.items():
        yield name, (start, as_of), (ly_start, min(ly_cap, ly_start + (as_of - start)))


def review_ranges(year, quarter):
    months, ly_months = fiscal_months(year), fiscal_months(year - 1)
    for i in range(3 * quarter - 3, 3 * quarter):
        yield months[i][0], months[i][1:3], ly_months[i][1:3]
    yield f"FY{year}Q{quarter}", (months[3 * quarter - 3][1], months[3 * quarter - 1][2]), \
        (ly_months[3 * quarter - 3][1], ly_months[3 * quarter - 1][2])


def check_comp(rows):
    sales = {}
    for code, day, s, *_ in rows:
        sales[(code, day)] = s

    def total(codes, span):
        return sum(sales.get((c, d), 0) for c in codes for d in days(*span))

    print("Comp sales (totalSales over the comparable stores of each range; expected values for the goldens)")
    ranges = [("kpi --as-of 2025-06-17 " + name, r, l) for name, r, l in kpi_ranges(dt.date(2025, 6, 17))]
    for year, quarter in ((2025, 1), (2025, 2), (2024, 2)):
        ranges += [("review " + name, r, l) for name, r, l in review_ranges(year, quarter)]
    for name, current, last_year in ranges:
        comp = [c for c in CODES if comparable(c, current, last_year)]
        print(f"{name:<35} {current[0]} .. {current[1]}  LY {last_year[0]} .. {last_year[1]}  comp stores {','.join(comp)}")
        for region in ("East", "West", None):
            codes = [c for c in comp if region is None or INFO[c][2] == region]
            now, ly = total(codes, current), total(codes, last_year)
            scope = f"comp:region:{region}" if region else "comp:ALL"
            every = [c for c in CODES if region is None or INFO[c][2] == region]
            all_now, all_ly = total(every, current), total(every, last_year)
            print(f"    {scope:<18} {now:>13,.2f} LY {ly:>13,.2f} {now / ly - 1:+7.2%}   "
                  f"(all stores {all_now:>13,.2f} LY {all_ly:>13,.2f} {all_now / all_ly - 1:+7.2%})")


def main():
    rows = sales_rows()
    applications = credit_rows()
    goals = goal_rows(rows, applications)
    if "--check" in sys.argv[1:]:
        check(rows, goals)
        print()
        check_comp(rows)
        return
    for folder in (FEEDS, REFERENCE):
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
    written = [write_stores()]
    for writer in (write_sales_fy2023, write_sales_fy2024, write_sales_fy2025):
        written.append(writer(rows))
    calls, weeks = write_calls()
    written += [write_credit(applications), calls, write_goals(goals)]
    for path in written:
        if path.endswith(".xlsx"):
            openpyxl.load_workbook(path, read_only=True).close()  # opens cleanly
        print(f"{os.path.relpath(path, HERE):<55}{os.path.getsize(path):>9} bytes")
    per_year = {y: sum(1 for r in rows if fiscal_year(r[1]) == y) for y in (2023, 2024, 2025)}
    print(f"sales-audit store-days: FY2023 {per_year[2023]}, FY2024 {per_year[2024]}, FY2025 H1 {per_year[2025]}; "
          f"credit applications {len(applications)}; call weeks {weeks}; goal rows {len(goals)}")


if __name__ == "__main__":
    main()
