package spec

import (
	"slices"
	"strings"

	"github.com/brianvoe/gofakeit/v7"
)

// Fake data comes from github.com/brianvoe/gofakeit/v7: it is maintained, has no dependencies,
// covers names, addresses, internet and text data, and draws every value from a rand.Source
// that we supply, so values are reproducible from our counter-based streams.

// fakers maps the names that `fake:` accepts to gofakeit functions.
var fakers = map[string]func(*gofakeit.Faker) string{
	"name":         (*gofakeit.Faker).Name,
	"first_name":   (*gofakeit.Faker).FirstName,
	"last_name":    (*gofakeit.Faker).LastName,
	"gender":       (*gofakeit.Faker).Gender,
	"email":        (*gofakeit.Faker).Email,
	"username":     (*gofakeit.Faker).Username,
	"phone":        (*gofakeit.Faker).Phone,
	"address":      func(f *gofakeit.Faker) string { return f.Address().Address },
	"street":       (*gofakeit.Faker).Street,
	"city":         (*gofakeit.Faker).City,
	"state":        (*gofakeit.Faker).State,
	"zip":          (*gofakeit.Faker).Zip,
	"country":      (*gofakeit.Faker).Country,
	"country_code": (*gofakeit.Faker).CountryAbr,
	"company":      (*gofakeit.Faker).Company,
	"job_title":    (*gofakeit.Faker).JobTitle,
	"word":         (*gofakeit.Faker).Word,
	"sentence":     func(f *gofakeit.Faker) string { return f.Sentence() },
	"paragraph":    func(f *gofakeit.Faker) string { return f.Paragraph() },
	"url":          (*gofakeit.Faker).URL,
	"domain":       (*gofakeit.Faker).DomainName,
	"ipv4":         (*gofakeit.Faker).IPv4Address,
	"ipv6":         (*gofakeit.Faker).IPv6Address,
	"user_agent":   (*gofakeit.Faker).UserAgent,
	"product":      (*gofakeit.Faker).ProductName,
	"color":        (*gofakeit.Faker).Color,
	"language":     (*gofakeit.Faker).Language,
}

// fakerNames returns the names fake: accepts, sorted, for messages.
func fakerNames() string {
	names := make([]string, 0, len(fakers))
	for n := range fakers {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}
