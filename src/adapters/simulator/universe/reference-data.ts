/**
 * Reference constants of the simulated universe, derived once from real data so a user's clone
 * needs no ../shared folder: lot sizes, strike steps and price levels of the NSE F&O stocks from an
 * August 2026 F&O instrument master (shared/data/reference/kite_fno_instruments_2026.csv), index
 * lot-size history from NSE option bhavcopies (shared/data/nse-options), expiry weekdays per era
 * from the exchanges' circulars, and the real NSE tokens / BSE codes of well-known large caps.
 */

/** Date from which a value applies (inclusive), `YYYY-MM-DD`. */
export interface Era<T> {
  readonly from: string;
  readonly value: T;
}

/** Expiry weekdays (1 = Monday ... 5 = Friday) in force for expiries on or after `from`. */
export interface ExpiryRule {
  /** Weekday of weekly expiries; null when the underlying has no weeklies in that era. */
  readonly weekly: number | null;
  /** Weekday of the monthly expiry (the last such weekday of the month); null: no derivatives. */
  readonly monthly: number | null;
}

export interface IndexSpec {
  readonly symbol: string;
  readonly exchange: 'NSE' | 'BSE';
  readonly securityId: string;
  /** Approximate level on ANCHOR_DATE, rupees. */
  readonly price: number;
  readonly annualVol: number;
  /** Null for indices without derivatives (INDIAVIX, NIFTYNXT50 here). */
  readonly derivatives: null | {
    readonly strikeStep: number;
    /** Strikes each side of the centre strike in every expiry's ladder. */
    readonly halfWidth: number;
    readonly futureTick: number;
    readonly lots: readonly Era<number>[];
    readonly expiries: readonly Era<ExpiryRule>[];
    /** Quarterly (Mar/Jun/Sep/Dec) monthlies listed beyond the three serial months. */
    readonly quarterlies: number;
    /** Weekly expiries listed at once (default 4; BSE lists five). */
    readonly weeklies?: number;
  };
}

/** Day the reference prices were observed; simulated paths pass through them on this date. */
export const ANCHOR_DATE = '2026-08-14';

const THU = 4;
const TUE = 2;

export const INDICES: readonly IndexSpec[] = [
  {
    symbol: 'NIFTY', exchange: 'NSE', securityId: '13', price: 24600, annualVol: 0.13,
    derivatives: {
      strikeStep: 50, halfWidth: 115, futureTick: 0.1, quarterlies: 3,
      lots: [{ from: '2000-01-01', value: 75 }, { from: '2021-07-01', value: 50 }, { from: '2024-05-01', value: 25 }, { from: '2025-01-01', value: 75 }, { from: '2026-01-01', value: 65 }],
      expiries: [{ from: '2019-02-11', value: { weekly: THU, monthly: THU } }, { from: '2025-09-01', value: { weekly: TUE, monthly: TUE } }],
    },
  },
  {
    symbol: 'BANKNIFTY', exchange: 'NSE', securityId: '25', price: 56300, annualVol: 0.16,
    derivatives: {
      strikeStep: 100, halfWidth: 115, futureTick: 0.2, quarterlies: 3,
      lots: [{ from: '2000-01-01', value: 25 }, { from: '2023-07-01', value: 15 }, { from: '2025-01-01', value: 30 }],
      expiries: [
        { from: '2016-05-27', value: { weekly: THU, monthly: THU } },
        { from: '2023-09-04', value: { weekly: 3, monthly: THU } },
        { from: '2024-03-01', value: { weekly: 3, monthly: 3 } },
        // SEBI's November 2024 measures left one weekly series per exchange: BANKNIFTY kept monthlies only.
        { from: '2024-11-14', value: { weekly: null, monthly: 3 } },
        { from: '2025-01-01', value: { weekly: null, monthly: THU } },
        { from: '2025-09-01', value: { weekly: null, monthly: TUE } },
      ],
    },
  },
  {
    symbol: 'FINNIFTY', exchange: 'NSE', securityId: '27', price: 26050, annualVol: 0.15,
    derivatives: {
      strikeStep: 50, halfWidth: 115, futureTick: 0.1, quarterlies: 0,
      lots: [{ from: '2000-01-01', value: 40 }, { from: '2024-05-01', value: 25 }, { from: '2025-01-01', value: 65 }, { from: '2026-01-01', value: 60 }],
      expiries: [
        { from: '2021-01-11', value: { weekly: TUE, monthly: TUE } },
        { from: '2024-11-20', value: { weekly: null, monthly: TUE } },
        { from: '2025-01-01', value: { weekly: null, monthly: THU } },
        { from: '2025-09-01', value: { weekly: null, monthly: TUE } },
      ],
    },
  },
  {
    symbol: 'MIDCPNIFTY', exchange: 'NSE', securityId: '442', price: 14350, annualVol: 0.18,
    derivatives: {
      strikeStep: 25, halfWidth: 115, futureTick: 0.05, quarterlies: 0,
      lots: [{ from: '2000-01-01', value: 75 }, { from: '2024-05-01', value: 50 }, { from: '2025-01-01', value: 140 }, { from: '2026-01-01', value: 120 }],
      expiries: [
        { from: '2022-01-24', value: { weekly: null, monthly: TUE } },
        { from: '2023-04-24', value: { weekly: 1, monthly: 1 } },
        { from: '2024-11-19', value: { weekly: null, monthly: 1 } },
        { from: '2025-01-01', value: { weekly: null, monthly: THU } },
        { from: '2025-09-01', value: { weekly: null, monthly: TUE } },
      ],
    },
  },
  { symbol: 'NIFTYNXT50', exchange: 'NSE', securityId: '38', price: 71600, annualVol: 0.17, derivatives: null },
  { symbol: 'INDIAVIX', exchange: 'NSE', securityId: '21', price: 13.5, annualVol: 0.6, derivatives: null },
  {
    symbol: 'SENSEX', exchange: 'BSE', securityId: '51', price: 80800, annualVol: 0.13,
    derivatives: {
      strikeStep: 100, halfWidth: 115, futureTick: 0.05, quarterlies: 3, weeklies: 5,
      lots: [{ from: '2000-01-01', value: 10 }, { from: '2025-01-01', value: 20 }],
      expiries: [
        { from: '2023-05-15', value: { weekly: 5, monthly: 5 } },
        { from: '2025-01-01', value: { weekly: TUE, monthly: TUE } },
        { from: '2025-09-01', value: { weekly: THU, monthly: THU } },
      ],
    },
  },
  {
    symbol: 'BANKEX', exchange: 'BSE', securityId: '69', price: 63400, annualVol: 0.16,
    derivatives: {
      strikeStep: 100, halfWidth: 115, futureTick: 0.05, quarterlies: 0,
      lots: [{ from: '2000-01-01', value: 15 }, { from: '2025-01-01', value: 30 }],
      expiries: [
        { from: '2023-10-16', value: { weekly: 1, monthly: 1 } },
        { from: '2024-11-20', value: { weekly: null, monthly: 1 } },
        { from: '2025-01-01', value: { weekly: null, monthly: TUE } },
        { from: '2025-09-01', value: { weekly: null, monthly: THU } },
      ],
    },
  },
];

/** Stock futures and options: monthly only, last Thursday until August 2025, last Tuesday since. */
export const STOCK_EXPIRIES: readonly Era<ExpiryRule>[] = [
  { from: '2000-01-01', value: { weekly: null, monthly: THU } },
  { from: '2025-09-01', value: { weekly: null, monthly: TUE } },
];

/** Strikes each side of the centre in a stock option ladder. */
export const STOCK_HALF_WIDTH = 18;

/** Tick-size bands of NSE cash and stock futures by price (rupees): [below this price, tick]. */
export const PRICE_BAND_TICKS: readonly (readonly [number, number])[] = [
  [250, 0.01],
  [1000, 0.05],
  [5000, 0.1],
  [10000, 0.5],
  [20000, 1],
  [Number.POSITIVE_INFINITY, 5],
];

/** Options trade in 5-paise steps at every price. */
export const OPTION_TICK = 0.05;
export const INDEX_TICK = 0.05;

/** Real NSE tokens, BSE codes and names of well-known large caps: [symbol, NSE token, BSE code, name]. */
export const KNOWN_EQUITIES: readonly (readonly [string, string, string, string])[] = [
  ['RELIANCE', '2885', '500325', 'Reliance Industries Ltd'],
  ['HDFCBANK', '1333', '500180', 'HDFC Bank Ltd'],
  ['INFY', '1594', '500209', 'Infosys Ltd'],
  ['TCS', '11536', '532540', 'Tata Consultancy Services Ltd'],
  ['ICICIBANK', '4963', '532174', 'ICICI Bank Ltd'],
  ['SBIN', '3045', '500112', 'State Bank of India'],
  ['ITC', '1660', '500875', 'ITC Ltd'],
  ['LT', '11483', '500510', 'Larsen & Toubro Ltd'],
  ['AXISBANK', '5900', '532215', 'Axis Bank Ltd'],
  ['KOTAKBANK', '1922', '500247', 'Kotak Mahindra Bank Ltd'],
  ['BHARTIARTL', '10604', '532454', 'Bharti Airtel Ltd'],
  ['HINDUNILVR', '1394', '500696', 'Hindustan Unilever Ltd'],
  ['BAJFINANCE', '317', '500034', 'Bajaj Finance Ltd'],
  ['MARUTI', '10999', '532500', 'Maruti Suzuki India Ltd'],
  ['TATASTEEL', '3499', '500470', 'Tata Steel Ltd'],
  ['WIPRO', '3787', '507685', 'Wipro Ltd'],
  ['HCLTECH', '7229', '532281', 'HCL Technologies Ltd'],
  ['SUNPHARMA', '3351', '524715', 'Sun Pharmaceutical Industries Ltd'],
  ['ASIANPAINT', '236', '500820', 'Asian Paints Ltd'],
  ['TITAN', '3506', '500114', 'Titan Company Ltd'],
  ['ULTRACEMCO', '11532', '532538', 'UltraTech Cement Ltd'],
  ['NTPC', '11630', '532555', 'NTPC Ltd'],
  ['POWERGRID', '14977', '532898', 'Power Grid Corporation of India Ltd'],
  ['ONGC', '2475', '500312', 'Oil and Natural Gas Corporation Ltd'],
  ['COALINDIA', '20374', '533278', 'Coal India Ltd'],
  ['M&M', '2031', '500520', 'Mahindra & Mahindra Ltd'],
  ['ADANIENT', '25', '512599', 'Adani Enterprises Ltd'],
  ['ADANIPORTS', '15083', '532921', 'Adani Ports and Special Economic Zone Ltd'],
  ['JSWSTEEL', '11723', '500228', 'JSW Steel Ltd'],
  ['TECHM', '13538', '532755', 'Tech Mahindra Ltd'],
  ['NESTLEIND', '17963', '500790', 'Nestle India Ltd'],
  ['DRREDDY', '881', '500124', 'Dr Reddys Laboratories Ltd'],
  ['CIPLA', '694', '500087', 'Cipla Ltd'],
  ['GRASIM', '1232', '500300', 'Grasim Industries Ltd'],
  ['BAJAJFINSV', '16675', '532978', 'Bajaj Finserv Ltd'],
  ['BAJAJ-AUTO', '16669', '532977', 'Bajaj Auto Ltd'],
  ['HEROMOTOCO', '1348', '500182', 'Hero MotoCorp Ltd'],
  ['EICHERMOT', '910', '505200', 'Eicher Motors Ltd'],
  ['BRITANNIA', '547', '500825', 'Britannia Industries Ltd'],
  ['DIVISLAB', '10940', '532488', 'Divis Laboratories Ltd'],
  ['HINDALCO', '1363', '500440', 'Hindalco Industries Ltd'],
  ['INDUSINDBK', '5258', '532187', 'IndusInd Bank Ltd'],
  ['APOLLOHOSP', '157', '508869', 'Apollo Hospitals Enterprise Ltd'],
  ['TATACONSUM', '3432', '500800', 'Tata Consumer Products Ltd'],
  ['SBILIFE', '21808', '540719', 'SBI Life Insurance Company Ltd'],
  ['HDFCLIFE', '467', '540777', 'HDFC Life Insurance Company Ltd'],
  ['BPCL', '526', '500547', 'Bharat Petroleum Corporation Ltd'],
  ['SHRIRAMFIN', '4306', '511218', 'Shriram Finance Ltd'],
  ['ETERNAL', '5097', '543320', 'Eternal Ltd'],
  ['TRENT', '1964', '500251', 'Trent Ltd'],
  ['BEL', '383', '500049', 'Bharat Electronics Ltd'],
  ['HAL', '2303', '541154', 'Hindustan Aeronautics Ltd'],
];

/**
 * NSE F&O stocks: [symbol, lot size, strike step (rupees), price level on ANCHOR_DATE (rupees)].
 * The price level is the middle strike of the nearest expiry's ladder in the reference master.
 */
export const FNO_STOCKS: readonly (readonly [string, number, number, number])[] = [
  ['360ONE', 500, 20, 1130],
  ['ABB', 125, 100, 7350],
  ['ABCAPITAL', 3100, 5, 405],
  ['ADANIENSOL', 675, 20, 1640],
  ['ADANIENT', 309, 50, 3045],
  ['ADANIGREEN', 600, 20, 1480],
  ['ADANIPORTS', 475, 20, 1770],
  ['ADANIPOWER', 3550, 5, 220],
  ['ALKEM', 125, 50, 5450],
  ['AMBER', 100, 100, 7400],
  ['AMBUJACEM', 1200, 5, 432.5],
  ['ANGELONE', 2500, 5, 315],
  ['APLAPOLLO', 350, 20, 1950],
  ['APOLLOHOSP', 125, 100, 8800],
  ['ASHOKLEY', 5000, 2.5, 163.75],
  ['ASIANPAINT', 250, 20, 2730],
  ['ASTRAL', 425, 20, 1460],
  ['AUBANK', 1000, 20, 1060],
  ['AUROPHARMA', 550, 20, 1590],
  ['AXISBANK', 625, 20, 1290],
  ['BAJAJ-AUTO', 75, 100, 10850],
  ['BAJAJFINSV', 300, 20, 1970],
  ['BAJAJHLDNG', 75, 100, 11200],
  ['BAJFINANCE', 750, 10, 1075],
  ['BANDHANBNK', 3600, 5, 195],
  ['BANKBARODA', 2925, 5, 255],
  ['BANKINDIA', 5200, 2.5, 141.25],
  ['BDL', 425, 20, 1320],
  ['BEL', 1425, 5, 405],
  ['BHARATFORG', 500, 20, 2150],
  ['BHARTIARTL', 475, 20, 1940],
  ['BHEL', 2625, 5, 412.5],
  ['BIOCON', 2500, 5, 425],
  ['BLUESTARCO', 325, 20, 1620],
  ['BOSCHLTD', 25, 500, 44250],
  ['BPCL', 1975, 5, 315],
  ['BRITANNIA', 125, 50, 5475],
  ['BSE', 200, 100, 3700],
  ['CAMS', 825, 10, 780],
  ['CANBK', 6750, 2.5, 130],
  ['CDSL', 475, 20, 1390],
  ['CGPOWER', 850, 20, 890],
  ['CHOLAFIN', 625, 20, 1830],
  ['CIPLA', 425, 10, 1435],
  ['COALINDIA', 1350, 5, 425],
  ['COCHINSHIP', 400, 20, 1450],
  ['COFORGE', 475, 20, 1590],
  ['COLPAL', 275, 20, 2070],
  ['CONCOR', 1250, 5, 490],
  ['CROMPTON', 2150, 5, 260],
  ['CUMMINSIND', 200, 100, 5500],
  ['DABUR', 1250, 5, 430],
  ['DALBHARAT', 325, 20, 1800],
  ['DELHIVERY', 2075, 5, 482.5],
  ['DIVISLAB', 100, 100, 7800],
  ['DIXON', 50, 250, 13250],
  ['DLF', 950, 10, 660],
  ['DMART', 150, 50, 4050],
  ['DRREDDY', 625, 10, 1220],
  ['EICHERMOT', 100, 100, 7650],
  ['ETERNAL', 2425, 5, 295],
  ['FEDERALBNK', 2500, 5, 345],
  ['FORCEMOT', 25, 500, 18250],
  ['FORTIS', 775, 10, 930],
  ['GAIL', 3550, 2.5, 173.75],
  ['GLENMARK', 375, 20, 2250],
  ['GMRAIRPORT', 6975, 1, 107],
  ['GODFRYPHLP', 275, 50, 2200],
  ['GODREJCP', 500, 10, 995],
  ['GODREJPROP', 325, 20, 2070],
  ['GRASIM', 250, 20, 3270],
  ['GVT&D', 125, 100, 4450],
  ['HAL', 150, 50, 4700],
  ['HAVELLS', 500, 20, 1230],
  ['HCLTECH', 400, 10, 1230],
  ['HDFCAMC', 300, 50, 2650],
  ['HDFCBANK', 650, 10, 775],
  ['HDFCLIFE', 1100, 5, 555],
  ['HEROMOTOCO', 150, 100, 5300],
  ['HINDALCO', 700, 20, 1010],
  ['HINDPETRO', 2025, 10, 370.75],
  ['HINDUNILVR', 300, 20, 2140],
  ['HINDZINC', 1225, 10, 565],
  ['HYUNDAI', 275, 20, 2080],
  ['ICICIBANK', 700, 10, 1420],
  ['ICICIGI', 325, 20, 1700],
  ['ICICIPRULI', 925, 5, 510],
  ['IDEA', 71475, 1, 14],
  ['IDFCFIRSTB', 9275, 1, 83],
  ['IEX', 4350, 2.5, 128.75],
  ['INDHOTEL', 1000, 10, 735],
  ['INDIANB', 1000, 10, 860],
  ['INDIGO', 150, 100, 5150],
  ['INDUSINDBK', 700, 10, 1005],
  ['INDUSTOWER', 1700, 5, 375.5],
  ['INFY', 400, 20, 1107.5],
  ['INOXWIND', 6400, 2.5, 77.5],
  ['IOC', 4875, 2.5, 141.25],
  ['IREDA', 4525, 2.5, 123.75],
  ['IRFC', 5425, 1, 89.5],
  ['ITC', 1725, 2.5, 283.75],
  ['JINDALSTEL', 625, 20, 1080],
  ['JIOFIN', 2350, 2.5, 247.5],
  ['JSWENERGY', 1075, 10, 555],
  ['JSWSTEEL', 675, 20, 1280],
  ['JUBLFOOD', 1250, 5, 470],
  ['KALYANKJIL', 1350, 5, 540],
  ['KAYNES', 150, 50, 3575],
  ['KEI', 175, 100, 5300],
  ['KFINTECH', 575, 20, 910],
  ['KOTAKBANK', 2000, 5, 387.5],
  ['KPITTECH', 775, 10, 595],
  ['LAURUSLABS', 850, 20, 1640],
  ['LICHSGFIN', 1000, 10, 530],
  ['LICI', 1400, 5, 410],
  ['LODHA', 625, 20, 1170],
  ['LT', 175, 50, 4000],
  ['LTF', 2250, 5, 320],
  ['LTM', 150, 50, 4275],
  ['LUPIN', 425, 20, 2340],
  ['M&M', 200, 50, 3225],
  ['MANAPPURAM', 3000, 5, 347.5],
  ['MANKIND', 250, 20, 2480],
  ['MARICO', 1200, 10, 865],
  ['MARUTI', 50, 100, 13950],
  ['MAXHEALTH', 525, 10, 1080],
  ['MAZDOCK', 225, 50, 2450],
  ['MCX', 225, 50, 2775],
  ['MFSL', 400, 20, 1560],
  ['MOTHERSON', 6150, 2.5, 153.75],
  ['MOTILALOFS', 775, 20, 870],
  ['MPHASIS', 275, 10, 2300],
  ['MUTHOOTFIN', 275, 50, 2950],
  ['NAM-INDIA', 625, 20, 1180],
  ['NATIONALUM', 1875, 10, 375],
  ['NAUKRI', 550, 20, 1230],
  ['NBCC', 6500, 2.5, 97.5],
  ['NESTLEIND', 500, 10, 1460],
  ['NHPC', 6950, 1, 79],
  ['NMDC', 6750, 1, 85],
  ['NTPC', 1500, 5, 350],
  ['NYKAA', 3125, 5, 330],
  ['OBEROIRLTY', 350, 20, 1820],
  ['OFSS', 100, 100, 10900],
  ['OIL', 1400, 5, 455],
  ['ONGC', 2250, 2.5, 243.75],
  ['PAGEIND', 20, 500, 39250],
  ['PATANJALI', 1075, 5, 370],
  ['PAYTM', 725, 20, 1430],
  ['PERSISTENT', 125, 100, 5050],
  ['PETRONET', 1900, 5, 280],
  ['PFC', 1300, 5, 407.5],
  ['PGEL', 950, 10, 610],
  ['PHOENIXLTD', 350, 20, 1990],
  ['PIDILITIND', 500, 20, 1640],
  ['PIIND', 175, 50, 2675],
  ['PNB', 8000, 1, 111],
  ['PNBHOUSING', 650, 20, 1100],
  ['POLICYBZR', 350, 20, 1650],
  ['POLYCAB', 125, 100, 9200],
  ['POWERGRID', 1900, 2.5, 277.5],
  ['POWERINDIA', 25, 500, 33500],
  ['PREMIERENE', 650, 20, 1040],
  ['PRESTIGE', 450, 20, 1620],
  ['RADICO', 150, 50, 4325],
  ['RBLBANK', 3175, 5, 372.5],
  ['RECLTD', 1575, 5, 352.5],
  ['RELIANCE', 500, 10, 1305],
  ['RVNL', 1925, 5, 235],
  ['SAIL', 4700, 2.5, 167.5],
  ['SBICARD', 800, 10, 625],
  ['SBILIFE', 375, 20, 1860],
  ['SBIN', 750, 10, 1055],
  ['SHREECEM', 25, 250, 26000],
  ['SHRIRAMFIN', 825, 20, 1050],
  ['SIEMENS', 175, 50, 3725],
  ['SOLARINDS', 50, 250, 18875],
  ['SONACOMS', 1225, 10, 735],
  ['SRF', 200, 50, 2775],
  ['SUNPHARMA', 350, 20, 1940],
  ['SUPREMEIND', 175, 50, 3375],
  ['SUZLON', 12700, 1, 52.5],
  ['SWIGGY', 1825, 5, 280],
  ['TATACONSUM', 550, 10, 1090],
  ['TATAELXSI', 125, 50, 3625],
  ['TATAPOWER', 1450, 5, 382.5],
  ['TATASTEEL', 2750, 2.5, 188.75],
  ['TCS', 225, 20, 2250],
  ['TECHM', 600, 20, 1480],
  ['TIINDIA', 200, 50, 2825],
  ['TITAN', 175, 50, 4750],
  ['TMPV', 1600, 5, 340],
  ['TORNTPHARM', 125, 50, 4950],
  ['TRENT', 225, 50, 3025],
  ['TVSMOTOR', 175, 50, 3950],
  ['ULTRACEMCO', 50, 50, 11730],
  ['UNIONBANK', 4425, 2.5, 173.75],
  ['UNITDSPR', 400, 20, 1460],
  ['UNOMINDA', 550, 20, 1180],
  ['UPL', 1355, 10, 600],
  ['VBL', 1275, 10, 480],
  ['VEDL', 1150, 5, 277.5],
  ['VMM', 4850, 2.5, 111.25],
  ['VOLTAS', 375, 20, 1320],
  ['WAAREEENER', 175, 50, 2725],
  ['WIPRO', 3000, 2.5, 181.25],
  ['YESBANK', 31100, 1, 24],
  ['ZYDUSLIFE', 900, 10, 1155],
];
