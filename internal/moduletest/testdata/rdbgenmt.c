/*
 * rdbgenmt: a Redis module of rdbgen's own, for tests. It defines one module
 * type, "rdbgen-mt", whose values are lists of tagged items, saved with every
 * RDB module opcode (signed, unsigned, float, double, string), and saves AUX
 * data before and after the keyspace. A dump a server writes with it holds
 * type-7 values and opcode-247 records; a server with it loaded answers MT.GET
 * and DEBUG DIGEST on what it loads.
 *
 * It declares the few module API functions it uses itself (the module ABI:
 * the context's first word is the API lookup function), so it needs no header
 * but the C library's.
 *
 * Commands:
 *   MT.SET key kind value [kind value ...]   kinds: s u f d b
 *   MT.GET key                              -> [kind, value, ...]
 *   MT.AUX before|after value               set the AUX data
 *   MT.AUXGET                               -> [before, after]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct RedisModuleCtx RedisModuleCtx;
typedef struct RedisModuleString RedisModuleString;
typedef struct RedisModuleKey RedisModuleKey;
typedef struct RedisModuleType RedisModuleType;
typedef struct RedisModuleIO RedisModuleIO;
typedef struct RedisModuleDigest RedisModuleDigest;
typedef int (*CmdFunc)(RedisModuleCtx *, RedisModuleString **, int);

#define OK 0
#define ERR 1
#define KEY_READ 1
#define KEY_WRITE 2
#define KEYTYPE_EMPTY 0
#define KEYTYPE_MODULE 6
#define AUX_BEFORE 1
#define AUX_AFTER 2

struct methods {
	uint64_t version;
	void *(*rdb_load)(RedisModuleIO *, int);
	void (*rdb_save)(RedisModuleIO *, void *);
	void (*aof_rewrite)(RedisModuleIO *, RedisModuleString *, void *);
	size_t (*mem_usage)(const void *);
	void (*digest)(RedisModuleDigest *, void *);
	void (*free)(void *);
	int (*aux_load)(RedisModuleIO *, int, int);
	void (*aux_save)(RedisModuleIO *, int);
	int aux_save_triggers;
};

static int (*GetApi)(const char *, void *);
static void (*SetModuleAttribs)(RedisModuleCtx *, const char *, int, int);
static int (*CreateCommand)(RedisModuleCtx *, const char *, CmdFunc, const char *, int, int, int);
static RedisModuleType *(*CreateDataType)(RedisModuleCtx *, const char *, int, void *);
static RedisModuleKey *(*OpenKey)(RedisModuleCtx *, RedisModuleString *, int);
static void (*CloseKey)(RedisModuleKey *);
static int (*KeyType)(RedisModuleKey *);
static RedisModuleType *(*ModuleTypeGetType)(RedisModuleKey *);
static void *(*ModuleTypeGetValue)(RedisModuleKey *);
static int (*ModuleTypeSetValue)(RedisModuleKey *, RedisModuleType *, void *);
static const char *(*StringPtrLen)(const RedisModuleString *, size_t *);
static int (*WrongArity)(RedisModuleCtx *);
static int (*ReplyWithError)(RedisModuleCtx *, const char *);
static int (*ReplyWithSimpleString)(RedisModuleCtx *, const char *);
static int (*ReplyWithArray)(RedisModuleCtx *, long);
static int (*ReplyWithStringBuffer)(RedisModuleCtx *, const char *, size_t);
static int (*ReplyWithNull)(RedisModuleCtx *);
static int (*ReplicateVerbatim)(RedisModuleCtx *);
static void *(*Alloc)(size_t);
static void (*Free)(void *);
static void (*SaveSigned)(RedisModuleIO *, int64_t);
static void (*SaveUnsigned)(RedisModuleIO *, uint64_t);
static void (*SaveFloat)(RedisModuleIO *, float);
static void (*SaveDouble)(RedisModuleIO *, double);
static void (*SaveStringBuffer)(RedisModuleIO *, const char *, size_t);
static int64_t (*LoadSigned)(RedisModuleIO *);
static uint64_t (*LoadUnsigned)(RedisModuleIO *);
static float (*LoadFloat)(RedisModuleIO *);
static double (*LoadDouble)(RedisModuleIO *);
static char *(*LoadStringBuffer)(RedisModuleIO *, size_t *);
static void (*DigestAddStringBuffer)(RedisModuleDigest *, const char *, size_t);
static void (*DigestEndSequence)(RedisModuleDigest *);

static RedisModuleType *mtType;

/* An item is one tagged value; a value is a list of items. Every item is kept
 * as its text form too, so MT.GET and the digest read the same bytes. */
typedef struct {
	char kind;
	int64_t s;
	uint64_t u;
	float f;
	double d;
	char *b;
	size_t blen;
} item;

typedef struct {
	size_t n;
	item *items;
} value;

static char *aux[2];
static size_t auxlen[2];

static void freeValue(void *p) {
	value *v = p;
	for (size_t i = 0; i < v->n; i++) Free(v->items[i].b);
	Free(v->items);
	Free(v);
}

/* text writes item it as MT.GET replies it. */
static size_t text(const item *it, char *buf, size_t cap) {
	switch (it->kind) {
	case 's': return (size_t)snprintf(buf, cap, "%lld", (long long)it->s);
	case 'u': return (size_t)snprintf(buf, cap, "%llu", (unsigned long long)it->u);
	case 'f': return (size_t)snprintf(buf, cap, "%.9g", (double)it->f);
	case 'd': return (size_t)snprintf(buf, cap, "%.17g", it->d);
	}
	return 0;
}

static void *load(RedisModuleIO *io, int encver) {
	if (encver != 1) return NULL;
	value *v = Alloc(sizeof(*v));
	v->n = LoadUnsigned(io);
	v->items = Alloc(sizeof(item) * (v->n ? v->n : 1));
	for (size_t i = 0; i < v->n; i++) {
		item *it = &v->items[i];
		memset(it, 0, sizeof(*it));
		size_t klen;
		char *k = LoadStringBuffer(io, &klen);
		it->kind = klen ? k[0] : '?';
		Free(k);
		switch (it->kind) {
		case 's': it->s = LoadSigned(io); break;
		case 'u': it->u = LoadUnsigned(io); break;
		case 'f': it->f = LoadFloat(io); break;
		case 'd': it->d = LoadDouble(io); break;
		default: it->b = LoadStringBuffer(io, &it->blen); break;
		}
	}
	return v;
}

static void save(RedisModuleIO *io, void *p) {
	value *v = p;
	SaveUnsigned(io, v->n);
	for (size_t i = 0; i < v->n; i++) {
		item *it = &v->items[i];
		SaveStringBuffer(io, &it->kind, 1);
		switch (it->kind) {
		case 's': SaveSigned(io, it->s); break;
		case 'u': SaveUnsigned(io, it->u); break;
		case 'f': SaveFloat(io, it->f); break;
		case 'd': SaveDouble(io, it->d); break;
		default: SaveStringBuffer(io, it->b, it->blen); break;
		}
	}
}

static void digest(RedisModuleDigest *md, void *p) {
	value *v = p;
	char buf[64];
	for (size_t i = 0; i < v->n; i++) {
		item *it = &v->items[i];
		DigestAddStringBuffer(md, &it->kind, 1);
		if (it->kind == 'b') DigestAddStringBuffer(md, it->b, it->blen);
		else DigestAddStringBuffer(md, buf, text(it, buf, sizeof(buf)));
	}
	DigestEndSequence(md);
}

static int auxLoad(RedisModuleIO *io, int encver, int when) {
	if (encver != 1) return ERR;
	int i = when == AUX_BEFORE ? 0 : 1;
	Free(aux[i]);
	aux[i] = LoadStringBuffer(io, &auxlen[i]);
	return OK;
}

static void auxSave(RedisModuleIO *io, int when) {
	int i = when == AUX_BEFORE ? 0 : 1;
	SaveStringBuffer(io, aux[i] ? aux[i] : "", auxlen[i]);
}

static int cmdSet(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
	if (argc < 2 || argc % 2 != 0) return WrongArity(ctx);
	value *v = Alloc(sizeof(*v));
	v->n = (size_t)(argc - 2) / 2;
	v->items = Alloc(sizeof(item) * (v->n ? v->n : 1));
	for (size_t i = 0; i < v->n; i++) {
		item *it = &v->items[i];
		memset(it, 0, sizeof(*it));
		size_t klen, len;
		const char *k = StringPtrLen(argv[2 + 2 * i], &klen);
		const char *s = StringPtrLen(argv[3 + 2 * i], &len);
		it->kind = klen == 1 ? k[0] : '?';
		switch (it->kind) {
		case 's': it->s = strtoll(s, NULL, 10); break;
		case 'u': it->u = strtoull(s, NULL, 10); break;
		case 'f': it->f = strtof(s, NULL); break;
		case 'd': it->d = strtod(s, NULL); break;
		case 'b':
			it->b = Alloc(len ? len : 1);
			memcpy(it->b, s, len);
			it->blen = len;
			break;
		default:
			v->n = i;
			freeValue(v);
			return ReplyWithError(ctx, "ERR kind must be one of s u f d b");
		}
	}
	RedisModuleKey *key = OpenKey(ctx, argv[1], KEY_READ | KEY_WRITE);
	int t = KeyType(key);
	if (t != KEYTYPE_EMPTY && (t != KEYTYPE_MODULE || ModuleTypeGetType(key) != mtType)) {
		CloseKey(key);
		freeValue(v);
		return ReplyWithError(ctx, "WRONGTYPE Operation against a key holding the wrong kind of value");
	}
	ModuleTypeSetValue(key, mtType, v);
	CloseKey(key);
	ReplicateVerbatim(ctx);
	return ReplyWithSimpleString(ctx, "OK");
}

static int cmdGet(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
	if (argc != 2) return WrongArity(ctx);
	RedisModuleKey *key = OpenKey(ctx, argv[1], KEY_READ);
	int t = KeyType(key);
	if (t == KEYTYPE_EMPTY) {
		CloseKey(key);
		return ReplyWithNull(ctx);
	}
	if (t != KEYTYPE_MODULE || ModuleTypeGetType(key) != mtType) {
		CloseKey(key);
		return ReplyWithError(ctx, "WRONGTYPE Operation against a key holding the wrong kind of value");
	}
	value *v = ModuleTypeGetValue(key);
	char buf[64];
	ReplyWithArray(ctx, (long)v->n * 2);
	for (size_t i = 0; i < v->n; i++) {
		item *it = &v->items[i];
		ReplyWithStringBuffer(ctx, &it->kind, 1);
		if (it->kind == 'b') ReplyWithStringBuffer(ctx, it->b, it->blen);
		else ReplyWithStringBuffer(ctx, buf, text(it, buf, sizeof(buf)));
	}
	CloseKey(key);
	return OK;
}

static int cmdAux(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
	if (argc != 3) return WrongArity(ctx);
	size_t wlen, len;
	const char *w = StringPtrLen(argv[1], &wlen);
	const char *s = StringPtrLen(argv[2], &len);
	int i;
	if (wlen == 6 && memcmp(w, "before", 6) == 0) i = 0;
	else if (wlen == 5 && memcmp(w, "after", 5) == 0) i = 1;
	else return ReplyWithError(ctx, "ERR say before or after");
	Free(aux[i]);
	aux[i] = Alloc(len ? len : 1);
	memcpy(aux[i], s, len);
	auxlen[i] = len;
	return ReplyWithSimpleString(ctx, "OK");
}

static int cmdAuxGet(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
	(void)argv;
	if (argc != 1) return WrongArity(ctx);
	ReplyWithArray(ctx, 2);
	for (int i = 0; i < 2; i++) ReplyWithStringBuffer(ctx, aux[i] ? aux[i] : "", auxlen[i]);
	return OK;
}

#define API(name) \
	if (GetApi("RedisModule_" #name, (void *)&name) != OK) return ERR

int RedisModule_OnLoad(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
	(void)argv;
	(void)argc;
	GetApi = (int (*)(const char *, void *))((void **)ctx)[0];
	API(SetModuleAttribs); API(CreateCommand); API(CreateDataType);
	API(OpenKey); API(CloseKey); API(KeyType); API(ModuleTypeGetType);
	API(ModuleTypeGetValue); API(ModuleTypeSetValue); API(StringPtrLen);
	API(WrongArity); API(ReplyWithError); API(ReplyWithSimpleString);
	API(ReplyWithArray); API(ReplyWithStringBuffer); API(ReplyWithNull);
	API(ReplicateVerbatim); API(Alloc); API(Free);
	API(SaveSigned); API(SaveUnsigned); API(SaveFloat); API(SaveDouble);
	API(SaveStringBuffer); API(LoadSigned); API(LoadUnsigned); API(LoadFloat);
	API(LoadDouble); API(LoadStringBuffer); API(DigestAddStringBuffer);
	API(DigestEndSequence);
	SetModuleAttribs(ctx, "rdbgenmt", 1, 1);

	struct methods m = {
		.version = 2,
		.rdb_load = load,
		.rdb_save = save,
		.digest = digest,
		.free = freeValue,
		.aux_load = auxLoad,
		.aux_save = auxSave,
		.aux_save_triggers = AUX_BEFORE | AUX_AFTER,
	};
	mtType = CreateDataType(ctx, "rdbgen-mt", 1, &m);
	if (mtType == NULL) return ERR;
	if (CreateCommand(ctx, "mt.set", cmdSet, "write deny-oom", 1, 1, 1) != OK) return ERR;
	if (CreateCommand(ctx, "mt.get", cmdGet, "readonly", 1, 1, 1) != OK) return ERR;
	if (CreateCommand(ctx, "mt.aux", cmdAux, "write", 0, 0, 0) != OK) return ERR;
	if (CreateCommand(ctx, "mt.auxget", cmdAuxGet, "readonly", 0, 0, 0) != OK) return ERR;
	return OK;
}
